"""Playbooks at run time: the index the instructions carry, one body on demand, and the progress of the
playbook a session follows, computed on every tool answer from the session's evidence (never from the
model's memory: what executed calls established is the only source of truth)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.prompts import Prompt
from mcp_types import CallToolResult, TextContent

from apiatlas.catalog.model import Playbook, PlaybookInvariant, PlaybookSection
from apiatlas.errors import ReasonCode
from apiatlas.server.evidence import Evidence, EvidenceStore
from apiatlas.server.results import SectionProgress
from apiatlas.server.tools.get_playbook import GetPlaybookResult, PlaybookSummary
from apiatlas.snapshot import CatalogReader

PLAYBOOK_INDEX_HEADING = "Playbooks"  # the instructions' per-role part starts with this line


class Playbooks:
    """The playbooks the served principal sees, read once from the snapshot (or its role view)."""

    def __init__(self, snapshot: CatalogReader, prefix: str) -> None:
        self.prefix = prefix
        self.by_name: dict[str, Playbook] = {p.name: p for p in snapshot.playbooks()}

    def index(self) -> str:
        """The instructions' last part: each visible playbook's name and trigger ("" when none)."""
        if not self.by_name:
            return ""
        lines = [
            f"{PLAYBOOK_INDEX_HEADING} (call {self.prefix}get_playbook with the name before following one; "
            "every tool answer then carries progress: navigate by its missing facts):",
            *(f"- {p.name}: {p.trigger}" for p in self.by_name.values()),
        ]
        return "\n".join(lines)

    def summaries(self) -> list[PlaybookSummary]:
        return [PlaybookSummary(name=p.name, trigger=p.trigger) for p in self.by_name.values()]

    def get(self, name: str, store: EvidenceStore) -> GetPlaybookResult:
        """One playbook's body; the session follows it from now on (its progress rides on every answer)."""
        playbook = self.by_name.get(name) or self.by_name.get(name.strip().lower())
        if playbook is None:
            return GetPlaybookResult(
                status="error",
                reason=ReasonCode.NO_MATCH,
                message=f"no playbook named '{name}'",
                playbooks=self.summaries(),
                next_actions=["call again with one of the names listed in playbooks"],
            )
        store.following = playbook.name
        return GetPlaybookResult(
            name=playbook.name,
            trigger=playbook.trigger,
            apis=playbook.apis,
            body=playbook.body,
            message=f"playbook {playbook.name}: follow its steps"
            + ("; every answer now carries its progress" if playbook.sections else ""),
            next_actions=["follow the body's steps in order, by the sections missing in progress"],
        )

    def progress_of(self, store: EvidenceStore) -> tuple[str, dict[str, SectionProgress]] | None:
        """The followed playbook's name and progress, or None when the session follows none with sections."""
        playbook = self.by_name.get(store.following or "")
        if playbook is None or not playbook.sections:
            return None
        return playbook.name, progress(playbook, store.all())


def progress(playbook: Playbook, evidence: list[Evidence]) -> dict[str, SectionProgress]:
    """Every section's state: the facts no executed call established yet, then the invariant markers."""
    calls = _latest_calls(evidence)
    out: dict[str, SectionProgress] = {}
    for section in playbook.sections:
        missing = _missing_facts(section, calls)
        missing += [i.marker for i in playbook.invariants if i.section == section.name and _broken(i, calls)]
        out[section.name] = SectionProgress(complete=not missing, missing=missing)
    return out


def render_progress(name: str, sections: dict[str, SectionProgress]) -> str:
    """The progress as one text line."""
    parts = [
        f"{s}: done" if p.complete else f"{s}: missing {', '.join(p.missing)}" for s, p in sections.items()
    ]
    return f"progress of {name} — " + "; ".join(parts)


def _latest_calls(evidence: list[Evidence]) -> dict[str, list[Evidence]]:
    """Evidence by API, one per distinct argument set (the latest wins: a repeated call counts once)."""
    by_args: dict[tuple[str, str], Evidence] = {}
    for item in evidence:
        by_args[(item.api, repr(sorted(item.args.items(), key=lambda kv: kv[0])))] = item
    calls: dict[str, list[Evidence]] = {}
    for (api, _), item in by_args.items():
        calls.setdefault(api, []).append(item)
    return calls


def _column_values(calls: dict[str, list[Evidence]], api: str, column: str) -> list[Any] | None:
    """Every non-empty value of ``column`` in the rows the session's calls of ``api`` returned; None when
    no call of ``api`` returned that column."""
    values: list[Any] | None = None
    for item in calls.get(api, []):
        for table in item.tables:
            index = next((i for i, c in enumerate(table.columns) if c.lower() == column.lower()), None)
            if index is None:
                continue
            values = values or []
            values += [row[index] for row in table.rows if row[index] not in (None, "")]
    return values


def _established(term: str, calls: dict[str, list[Evidence]]) -> bool:
    api, _, column = term.partition(".")
    if not column:
        return bool(calls.get(api))
    return bool(_column_values(calls, api, column))


def _missing_facts(section: PlaybookSection, calls: dict[str, list[Evidence]]) -> list[str]:
    return [
        fact for fact, sources in section.facts.items() if not any(_established(s, calls) for s in sources)
    ]


def _side(terms: list[str], calls: dict[str, list[Evidence]]) -> float | None:
    """The sum of signed ``API.Column`` terms over the session's rows; None while a term is unknown."""
    total = 0.0
    for term in terms:
        sign = -1.0 if term.startswith("-") else 1.0
        api, _, column = term.lstrip("+-").partition(".")
        values = _column_values(calls, api, column)
        if not values:
            return None
        numbers = [_number(v) for v in values]
        if any(n is None for n in numbers):
            return None
        total += sign * math.fsum(n for n in numbers if n is not None)
    return total


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _broken(invariant: PlaybookInvariant, calls: dict[str, list[Evidence]]) -> bool:
    """Both sides known and apart by more than the tolerance (an unknown side is not yet a mismatch)."""
    parts, total = _side(invariant.parts, calls), _side(invariant.total, calls)
    return parts is not None and total is not None and abs(parts - total) > invariant.tolerance


def with_progress(result: CallToolResult, playbooks: Playbooks, store: EvidenceStore) -> CallToolResult:
    """A tool answer with the followed playbook's progress added to its structured content and text."""
    found = playbooks.progress_of(store)
    if found is None or not isinstance(result.structured_content, dict):
        return result
    name, sections = found
    result.structured_content["progress"] = {s: p.model_dump(mode="json") for s, p in sections.items()}
    line = render_progress(name, sections)
    texts = [block for block in result.content if isinstance(block, TextContent)]
    if texts:
        texts[0].text += "\n" + line
    else:
        result.content.append(TextContent(type="text", text=line))
    return result


def playbook_prompts(playbooks: Playbooks) -> list[Prompt]:
    """Every visible playbook as an MCP prompt (its body as the user message that starts following it)."""
    return [
        Prompt.from_function(_returning(p.body), name=p.name, description=p.trigger)
        for p in playbooks.by_name.values()
    ]


def _returning(text: str) -> Callable[[], str]:
    def body() -> str:
        return text

    return body
