"""Reads a folder of playbooks (``*.md`` with YAML front matter) and checks them against the catalog.

A playbook file::

    ---
    name: client-kyc-check
    trigger: One sentence saying when to use it.
    roles: [compliance]            # optional; empty: every role
    apis: [API_A, API_B]           # every API the steps name
    sections:                      # optional; the facts each part of the flow needs
      identity:
        id: API_A.Id               # a non-empty output column of an executed call
        documents: [API_B]         # a successful call of API_B (several sources: any of them)
    invariants:                    # optional; parts must add up to the declared total
      - {marker: turnoverMismatch, section: identity, parts: [API_A.X, -API_A.Y], total: [API_A.Z]}
    ---
    The steps, in Markdown.

Every mistake is a ``SourceError`` located at the file and line: a missing or malformed front matter, an
unknown key, an API the catalog does not have (or its funnel dropped), a column the API does not return.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from apiatlas.catalog.model import Catalog, Playbook, PlaybookInvariant, PlaybookSection
from apiatlas.errors import Location, ReasonCode, SourceError

_FENCE = "---"
_CODE = re.compile(r"`([^`\n]+)`")
_KEYS = {"name", "trigger", "roles", "apis", "sections", "invariants"}


def load_playbooks(folder: Path) -> list[Playbook]:
    """Every ``*.md`` under ``folder`` (sorted by path), parsed; names must be unique."""
    if not folder.is_dir():
        raise SourceError(f"playbook folder not found: {folder}", code=ReasonCode.BAD_CONFIG)
    playbooks: list[Playbook] = []
    seen: dict[str, str] = {}
    for path in sorted(folder.rglob("*.md")):
        relative = path.relative_to(folder).as_posix()
        playbook = parse_playbook(path.read_text(encoding="utf-8"), relative)
        if playbook.name in seen:
            raise SourceError(
                f"playbook name '{playbook.name}' is also the name of {seen[playbook.name]}",
                location=Location(file=relative, line=_line_of(path.read_text(encoding="utf-8"), "name:")),
            )
        seen[playbook.name] = relative
        playbooks.append(playbook)
    return playbooks


def parse_playbook(text: str, source: str) -> Playbook:
    """One playbook file: front matter between ``---`` lines, then the Markdown body."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != _FENCE:
        raise SourceError(
            "a playbook starts with '---' and its front matter", location=Location(file=source, line=1)
        )
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == _FENCE), None)
    if end is None:
        raise SourceError("the front matter is not closed by '---'", location=Location(file=source, line=1))
    try:
        meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        raise SourceError(
            f"front matter is not YAML: {exc}", location=Location(file=source, line=line)
        ) from exc
    if not isinstance(meta, dict):
        raise SourceError("front matter must be a mapping", location=Location(file=source, line=2))
    unknown = sorted(set(meta) - _KEYS)
    if unknown:
        raise SourceError(
            f"unknown front matter key(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}",
            location=Location(file=source, line=_line_of(text, f"{unknown[0]}:")),
        )
    return _playbook(meta, "\n".join(lines[end + 1 :]).strip() + "\n", source, text)


def _playbook(meta: dict[str, Any], body: str, source: str, text: str) -> Playbook:
    try:
        sections = [
            PlaybookSection(name=str(name), facts={str(f): _sources(s) for f, s in (facts or {}).items()})
            for name, facts in (meta.get("sections") or {}).items()
        ]
        return Playbook(
            name=meta.get("name") or "",
            trigger=" ".join(str(meta.get("trigger") or "").split()),
            body=body,
            roles=list(meta.get("roles") or []),
            apis=list(meta.get("apis") or []),
            sections=sections,
            invariants=[PlaybookInvariant.model_validate(i) for i in meta.get("invariants") or []],
            source=source,
        )
    except (ValidationError, AttributeError, TypeError) as exc:
        raise SourceError(f"front matter: {exc}", location=Location(file=source, line=2)) from exc


def _sources(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _line_of(text: str, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle`` (1 when absent)."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    return 1


def check_playbooks(playbooks: list[Playbook], catalog: Catalog, folder: Path) -> None:
    """Every name and trigger given, every API a playbook names kept in the catalog, every ``API.Column`` a
    column the API returns, every invariant's section declared; the first mistake is a located error."""
    for playbook in playbooks:
        text = (folder / playbook.source).read_text(encoding="utf-8")

        def fail(message: str, needle: str, pb: Playbook = playbook, body: str = text) -> SourceError:
            return SourceError(
                f"playbook {pb.name or '?'}: {message}",
                location=Location(file=pb.source, line=_line_of(body, needle), anchor=pb.name or None),
            )

        if not playbook.name or not playbook.trigger:
            raise fail("front matter needs 'name' and 'trigger' (one sentence: when to use it)", _FENCE)
        for api in playbook.apis:
            _check_api(catalog, api, fail)
        declared = {s.name for s in playbook.sections}
        for section in playbook.sections:
            for sources in section.facts.values():
                for term in sources:
                    _check_term(catalog, term, fail)
        for invariant in playbook.invariants:
            if invariant.section not in declared:
                raise fail(
                    f"invariant {invariant.marker}: no section '{invariant.section}'", invariant.marker
                )
            for term in (*invariant.parts, *invariant.total):
                _check_term(catalog, term.lstrip("+-"), fail)
        for key in _mentioned(playbook.body, catalog):
            _check_api(catalog, key, fail)
        named = set(playbook.apis)
        used = {t.lstrip("+-").split(".")[0] for t in _terms(playbook)} | set(
            _mentioned(playbook.body, catalog)
        )
        playbook.apis += sorted(used - named)


def _mentioned(body: str, catalog: Catalog) -> list[str]:
    """The catalog's APIs the body names as code (`` `KEY` ``), kept or not, in order of mention."""
    spans = dict.fromkeys(m.strip() for m in _CODE.findall(body))
    return [span for span in spans if span in catalog.apis]


def _terms(playbook: Playbook) -> list[str]:
    facts = [t for s in playbook.sections for sources in s.facts.values() for t in sources]
    return facts + [t for i in playbook.invariants for t in (*i.parts, *i.total)]


def _check_api(catalog: Catalog, key: str, fail: Any) -> None:
    api = catalog.apis.get(key)
    if api is None:
        raise fail(f"names API '{key}', which the catalog does not have", key)
    if not api.funnel.kept:
        raise fail(f"names API '{key}', which the build dropped ({api.funnel.reason or 'funnel'})", key)


def _check_term(catalog: Catalog, term: str, fail: Any) -> None:
    key, _, column = term.partition(".")
    _check_api(catalog, key, fail)
    if not column:
        return
    columns = {c.name.lower() for t in catalog.apis[key].output_tables for c in t.columns}
    if column.lower() not in columns:
        raise fail(f"'{term}': {key} returns no column {column}", term)
