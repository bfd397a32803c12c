"""What the MCP surface of one snapshot costs a model in tokens (``apiatlas bench tokens``).

Every figure is measured on the server ``build_server`` builds, through the official MCP client in
process, with tiktoken's ``cl100k_base`` (the offline copy, as ``apiatlas bench server``); beside each
one the same thing for the one-tool-per-API surface the meta-tools replace.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import tiktoken
from mcp.client import Client
from pydantic import BaseModel, Field

from apiatlas.server.app import build_server, warm_up_query
from apiatlas.server.benchmark import ENCODING, ENCODING_NOTE, per_api_tools, tokens, wire_tools
from apiatlas.server.config import ServerConfig
from apiatlas.server.result_text import RESULT_TEXT_FORMS
from apiatlas.server.results import ToolResult
from apiatlas.server.tools.common import ANSWER_HEADER, answer_text
from apiatlas.snapshot import Snapshot

# the budgets of issue 21: description + inputSchema, the whole tools/list, the static instructions,
# one describe_api answer by default
BUDGETS: dict[str, int] = {
    "tools_description_input": 1100,
    "tools_list": 3000,
    "instructions_static": 400,
    "describe_api_largest": 2000,
}
_DESCRIBE_CANDIDATES = 5  # describe_api is called on the APIs with the largest compiled contracts


class SurfaceFigure(BaseModel):
    """One figure: this server's tokens and the one-tool-per-API equivalent (None where none exists)."""

    name: str
    tokens: int
    per_api_tokens: int | None = None
    budget: int | None = None
    note: str = ""

    @property
    def within_budget(self) -> bool:
        return self.budget is None or self.tokens <= self.budget


class TokenBench(BaseModel):
    snapshot: str
    encoding: str = ENCODING
    encoding_note: str = ENCODING_NOTE
    kept_apis: int
    tools: int
    playbooks: int = 0
    figures: list[SurfaceFigure] = Field(default_factory=list)
    describe_api: str = ""  # the API whose describe_api answer was the largest

    def figure(self, name: str) -> SurfaceFigure:
        return next(f for f in self.figures if f.name == name)


def description_and_input(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a client must show the model of each tool: name, description, input schema."""
    return [{k: t[k] for k in ("name", "description", "inputSchema") if k in t} for t in tools]


def _largest_contracts(snap: Snapshot) -> list[str]:
    sized = [(tokens_free_size(snap, key), key) for key in snap.all_api_keys()]
    return [key for _, key in sorted(sized, reverse=True)[:_DESCRIBE_CANDIDATES]]


def tokens_free_size(snap: Snapshot, key: str) -> int:
    """A cheap size of an API's compiled contract (characters of its schemas), to pick the largest."""
    schemas = (snap.api_input_schema(key) or {}, snap.api_output_schema(key) or {})
    return sum(len(json.dumps(s, separators=(",", ":"))) for s in schemas)


def _answer_tokens(encoder: tiktoken.Encoding, result: Any) -> tuple[int, int]:
    text = "".join(getattr(block, "text", "") for block in result.content)
    return tokens(encoder, text), tokens(encoder, result.structured_content or {})


async def _describe_figures(
    client: Client, encoder: tiktoken.Encoding, snap: Snapshot, prefix: str, per_api: dict[str, int]
) -> tuple[str, list[SurfaceFigure]]:
    best: tuple[int, int, str] = (0, 0, "")
    for key in _largest_contracts(snap):
        result = await client.call_tool(f"{prefix}describe_api", {"api": key})
        text, structured = _answer_tokens(encoder, result)
        best = max(best, (max(text, structured), text + structured, key))
    largest, both, key = best
    return key, [
        SurfaceFigure(
            name="describe_api_largest",
            tokens=largest,
            per_api_tokens=per_api.get(key),
            budget=BUDGETS["describe_api_largest"],
            note=f"{key}: the larger of text and structured content; per-API: that API's own tool definition",
        ),
        SurfaceFigure(
            name="describe_api_text_plus_structured",
            tokens=both,
            note="what a client that forwards both the text and the structured content pays",
        ),
    ]


def _answer_calls(snap: Snapshot, prefix: str, largest: str) -> list[tuple[str, dict[str, Any]]]:
    """Typical answers, from the served catalog itself: a search by one API's title, the business
    objects, the largest describe_api."""
    return [
        (f"{prefix}search", {"query": warm_up_query(snap)}),
        (f"{prefix}list_business_objects", {}),
        (f"{prefix}describe_api", {"api": largest}),
    ]


async def _answer_text_figures(
    client: Client, encoder: tiktoken.Encoding, calls: list[tuple[str, dict[str, Any]]]
) -> list[SurfaceFigure]:
    """What the text of those answers costs in each form of ``--result-text``, alone and with the
    structured content beside it (a client that forwards both)."""
    answers = [(await client.call_tool(name, args)).structured_content or {} for name, args in calls]
    structured = sum(tokens(encoder, data) for data in answers)
    names = ", ".join(name for name, _ in calls)
    figures = [
        SurfaceFigure(name="answers_structured", tokens=structured, note=f"structured content of {names}")
    ]
    for form in RESULT_TEXT_FORMS:
        text = sum(tokens(encoder, answer_text(_summary_of(data), data, form)) for data in answers)
        figures.append(
            SurfaceFigure(
                name=f"answers_text_{form}",
                tokens=text,
                note=f"--result-text {form}: the text alone; with the structured content beside it "
                f"{text + structured}",
            )
        )
    return figures


def _summary_of(data: dict[str, Any]) -> str:
    return ToolResult.model_validate({k: data[k] for k in ANSWER_HEADER if k in data}).summary()


async def measure_tokens(snapshot_path: Path, config: ServerConfig | None = None) -> TokenBench:
    """Every figure of ``apiatlas bench tokens`` for one snapshot."""
    encoder = tiktoken.get_encoding(ENCODING)
    config = config or ServerConfig()
    with Snapshot.open(snapshot_path) as snap:
        prefix = config.prefix_for(snap.manifest())
        kept = [a for k in snap.all_api_keys() if (a := snap.get_api(k)) is not None]
        baseline = per_api_tools(snap, kept)
        per_api = {api.key: tokens(encoder, tool) for api, tool in zip(kept, baseline, strict=True)}
        server = build_server(snap, None, config)
        async with Client(server) as client:
            listed = wire_tools((await client.list_tools()).tools)
            prompts = (await client.list_prompts()).prompts
            key, describe = await _describe_figures(client, encoder, snap, prefix, per_api)
            answers = await _answer_text_figures(client, encoder, _answer_calls(snap, prefix, key))
        static, index = split_instructions(server.instructions or "")
        report = TokenBench(
            snapshot=str(snapshot_path), kept_apis=len(kept), tools=len(listed), playbooks=len(prompts)
        )
        report.describe_api = key
        report.figures = [
            SurfaceFigure(
                name="tools_description_input",
                tokens=tokens(encoder, description_and_input(listed)),
                per_api_tokens=tokens(encoder, description_and_input(baseline)),
                budget=BUDGETS["tools_description_input"],
                note="name, description and inputSchema of every tool, compact JSON",
            ),
            SurfaceFigure(
                name="tools_list",
                tokens=tokens(encoder, listed),
                per_api_tokens=tokens(encoder, baseline),
                budget=BUDGETS["tools_list"],
                note="the whole tools/list as compact JSON (output schemas, annotations, icons included)",
            ),
            SurfaceFigure(
                name="output_schemas",
                tokens=tokens(encoder, [t.get("outputSchema", {}) for t in listed]),
                per_api_tokens=tokens(encoder, [t.get("outputSchema", {}) for t in baseline]),
            ),
            SurfaceFigure(
                name="instructions_static",
                tokens=tokens(encoder, static),
                budget=BUDGETS["instructions_static"],
                note="the shared prefix every principal gets",
            ),
            SurfaceFigure(
                name="instructions_playbook_index",
                tokens=tokens(encoder, index),
                note="the per-role part: visible playbooks' names and triggers",
            ),
            *describe,
            *answers,
        ]
    return report


PLAYBOOK_INDEX_HEADING = "Playbooks"


def split_instructions(text: str) -> tuple[str, str]:
    """The instructions' static prefix and the playbook index after it (``""`` when there is none)."""
    marker = f"\n{PLAYBOOK_INDEX_HEADING} ("
    head, found, tail = text.partition(marker)
    return head, (found + tail).lstrip("\n") if found else ""


def render_tokens(report: TokenBench) -> str:
    """The figures as a table."""
    lines = [
        f"snapshot: {report.snapshot} ({report.kept_apis} kept APIs, {report.tools} tools, "
        f"{report.playbooks} playbooks)",
        f"tokens: {report.encoding} — {report.encoding_note}",
        "",
        f"{'figure':<36} {'tokens':>8} {'one tool per API':>17} {'budget':>8}  ok",
    ]
    for f in report.figures:
        per_api = "-" if f.per_api_tokens is None else str(f.per_api_tokens)
        budget = "-" if f.budget is None else str(f.budget)
        ok = "yes" if f.within_budget else "NO"
        lines.append(f"  {f.name:<34} {f.tokens:>8} {per_api:>17} {budget:>8}  {ok}")
        if f.note:
            lines.append(f"    {f.note}")
    return "\n".join(lines)
