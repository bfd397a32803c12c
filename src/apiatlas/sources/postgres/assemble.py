"""Turns PostgreSQL catalog rows into a Catalog: an API per routine, a business object per schema."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    ExecutorBinding,
    Param,
    SessionTable,
    SideEffect,
)
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.type_map import register_base_type
from apiatlas.sources.postgres.introspect import CatalogRows, RelationRow, RoutineRow
from apiatlas.sources.sql_body import BodyFacts, Dialect, classify_writes, tokenize

KIND = "postgresql"
_ORDER = [SideEffect.READ, SideEffect.WRITE, SideEffect.DESTRUCTIVE]
_NOT_CALLABLE_RETURNS = {"trigger", "event_trigger"}
_ARG_LINE = re.compile(r"^\s*@?([^\W\d]\w*)\s*(?::|—|–|-)\s+(.+?)\s*$")


@dataclass(frozen=True)
class Selection:
    """Include/exclude patterns on ``schema.routine`` (fnmatch; a pattern without '.' names schemas)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def wants(self, schema: str, name: str) -> bool:
        full = f"{schema}.{name}".lower()

        def hit(pattern: str) -> bool:
            pattern = pattern.lower() if "." in pattern else f"{pattern.lower()}.*"
            return fnmatchcase(full, pattern)

        if self.include and not any(hit(p) for p in self.include):
            return False
        return not any(hit(p) for p in self.exclude)


@dataclass
class _Args:
    params: list[Param] = field(default_factory=list)
    call: list[dict[str, Any]] = field(default_factory=list)  # how the executor passes each input
    outputs: list[Column] = field(default_factory=list)  # OUT / INOUT / TABLE columns


def build_catalog(rows: CatalogRows, selection: Selection | None = None) -> Catalog:
    """The Catalog of the selected routines; skipped ones (extensions, triggers, aggregates) are counted."""
    chosen = selection or Selection()
    catalog = Catalog(source_kind=KIND)
    relations = {r.oid: r for r in rows.relations}
    permanent = {r.name.lower() for r in rows.relations if r.kind != "c"}
    permanent |= {f"{r.schema}.{r.name}".lower() for r in rows.relations if r.kind != "c"}
    skipped: dict[str, int] = {}
    facts: dict[str, BodyFacts] = {}

    def is_local(parts: list[str]) -> bool:
        return ".".join(parts).lower() not in permanent

    for row in rows.routines:
        reason = _skip_reason(row, chosen)
        if reason:
            skipped[reason] = skipped.get(reason, 0) + 1
            continue
        key = f"{row.schema}.{row.name}"
        if key in catalog.apis:
            key = f"{key}({row.identity})"
            catalog.add_diagnostic(Diagnostic(
                severity=Severity.WARNING, code=ReasonCode.DUPLICATE_KEY,
                message=f"{row.schema}.{row.name} is overloaded; this variant is keyed {key}",
                location=Location(file="@catalog", anchor=key)))  # fmt: skip
        body = tokenize(row.body, Dialect.POSTGRES) if row.body is not None else []
        facts[key] = classify_writes(body, Dialect.POSTGRES, is_local=is_local)
        catalog.apis[key] = _api(key, row, facts[key], relations, catalog)
    _transitive(catalog, facts)
    for api in catalog.apis.values():
        obj = catalog.objects.get(api.object_key)
        if obj is None:
            text = rows.schemas.get(api.object_key, "")
            obj = catalog.objects[api.object_key] = BusinessObject(
                key=api.object_key, name=api.object_key,
                title=text.splitlines()[0] if text else api.object_key,
                description=text)  # fmt: skip
        obj.api_keys.append(api.key)
    catalog.stats["skipped_routines"] = dict(sorted(skipped.items()))
    return catalog


def _skip_reason(row: RoutineRow, selection: Selection) -> str:
    if not selection.wants(row.schema, row.name):
        return "excluded by pattern"
    if row.from_extension:
        return "belongs to an extension"
    if row.kind in ("a", "w"):
        return "aggregate or window function"
    if row.return_type in _NOT_CALLABLE_RETURNS:
        return "trigger function"
    return ""


def _api(
    key: str, row: RoutineRow, facts: BodyFacts, relations: dict[int, RelationRow], catalog: Catalog
) -> Api:
    args = _arguments(row, catalog)
    description, arg_texts = _split_comment(row.comment or "", {p.name.lower() for p in args.params})
    for param in args.params:
        param.description = arg_texts.get(param.name.lower(), "") or arg_texts.get(
            param.name.lower().removeprefix("p_"), "")  # fmt: skip
    outputs = _outputs(row, args, relations, catalog)
    tables = {
        t: (rel.comment or "")
        for t in dict.fromkeys(facts.tables)
        for rel in relations.values()
        if f"{rel.schema}.{rel.name}".lower() == t.lower() or rel.name.lower() == t.lower()
    }
    extra: dict[str, Any] = {
        "sql_kind": "procedure" if row.kind == "p" else "function",
        "language": row.language,
        "volatility": {"i": "immutable", "s": "stable", "v": "volatile"}.get(row.volatility, row.volatility),
        "signature": f"{row.schema}.{row.name}({row.arguments_text})",
        "returns": ("SETOF " if row.returns_set else "") + row.return_type,
        "pg_arguments": args.call,
        "side_effect_reasons": list(facts.reasons),
    }
    if tables:
        extra["tables"] = tables
    side_effect = _side_effect(row, facts, extra)
    return Api(
        key=key,
        object_key=row.schema,
        title=description.splitlines()[0] if description else "",
        description=description,
        params=args.params,
        output_tables=outputs,
        approved=True,
        implemented=True,
        forbidden=False,
        side_effect=side_effect,
        executor=ExecutorBinding(
            kind="sql_procedure" if row.kind == "p" else "sql_function",
            target=f'"{row.schema}"."{row.name}"',
        ),
        source=Location(file="@catalog", anchor=f"{row.schema}.{row.name}({row.identity})"),
        extra=extra,
    )


def _side_effect(row: RoutineRow, facts: BodyFacts, extra: dict[str, Any]) -> SideEffect:
    """Body first; a body we cannot read is a write unless the function is declared IMMUTABLE or STABLE."""
    if facts.side_effect is not SideEffect.READ:
        return facts.side_effect
    if row.body is None and not (row.kind == "f" and row.volatility in ("i", "s")):
        extra["side_effect_reasons"] = [f"{row.language} body cannot be read and the routine is volatile"]
        return SideEffect.WRITE
    return SideEffect.READ


def _arguments(row: RoutineRow, catalog: Catalog) -> _Args:
    modes = row.arg_modes or ["i"] * len(row.arg_types)
    names = row.arg_names or [""] * len(row.arg_types)
    inputs = [n for n, m in enumerate(modes) if m in ("i", "b", "v")]
    defaults = _defaults(row.arguments_text)
    with_default = set(inputs[len(inputs) - row.n_defaults :]) if row.n_defaults else set()
    result = _Args()
    for position, (mode, type_name) in enumerate(zip(modes, row.arg_types, strict=False)):
        name = names[position] if position < len(names) else ""
        _register_type(catalog, type_name)
        if mode in ("o", "b", "t"):
            result.outputs.append(Column(name=name or f"column{position + 1}", domain_type=type_name))
        if mode not in ("i", "b", "v"):
            continue
        param_name = name or f"arg{inputs.index(position) + 1}"
        has_default = position in with_default
        default = defaults.get(name) if name else None
        result.params.append(Param(name=param_name, domain_type=type_name, required=not has_default,
                                   default=_literal(default)))  # fmt: skip
        result.call.append({"param": param_name, "argument": name or None, "has_default": has_default})
    return result


def _defaults(arguments_text: str) -> dict[str, str]:
    """argument name -> default expression, from ``pg_get_function_arguments`` text."""
    found: dict[str, str] = {}
    for piece in _split_top_level(arguments_text):
        match = re.match(r"^\s*(?:(?:IN|OUT|INOUT|VARIADIC)\s+)?(\S+)\s+.*?\bDEFAULT\s+(.+)$", piece, re.S)
        if match:
            found[match.group(1).strip('"')] = match.group(2).strip()
    return found


def _split_top_level(text: str) -> list[str]:
    pieces, depth, quote, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == "'":
            quote = not quote
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
        elif not quote and depth == 0 and ch == ",":
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


def _literal(default: str | None) -> Any:
    if default is None or default.upper().startswith("NULL"):
        return None
    quoted = re.match(r"^'((?:[^']|'')*)'(?:::.+)?$", default)
    if quoted:
        return quoted.group(1).replace("''", "'")
    try:
        return int(default)
    except ValueError:
        try:
            return float(default)
        except ValueError:
            return default


def _outputs(
    row: RoutineRow, args: _Args, relations: dict[int, RelationRow], catalog: Catalog
) -> list[SessionTable]:
    if row.kind == "p":
        if not args.outputs:
            return []
        return [SessionTable(name="out_params", direction=Direction.OUT,
                             description="OUT and INOUT arguments",
                             columns=args.outputs)]  # fmt: skip
    columns = args.outputs
    description = f"rows returned by {row.schema}.{row.name}"
    if not columns and row.return_relid and row.return_relid in relations:
        relation = relations[row.return_relid]
        description = relation.comment or f"rows of {relation.schema}.{relation.name}"
        columns = []
        for name, type_name, text in zip(relation.columns, relation.column_types, relation.column_comments,
                                         strict=False):  # fmt: skip
            _register_type(catalog, type_name)
            columns.append(Column(name=name, domain_type=type_name, description=text))
    if not columns and row.return_type != "void":
        _register_type(catalog, row.return_type)
        columns = [Column(name=row.name, domain_type=row.return_type)]
    if not columns:
        return []
    return [SessionTable(name="result", direction=Direction.OUT, description=description, columns=columns)]


def _split_comment(comment: str, arg_names: set[str]) -> tuple[str, dict[str, str]]:
    """The routine text and per-argument texts: a line ``p_name: text`` describes an argument."""
    keep: list[str] = []
    texts: dict[str, str] = {}
    known = arg_names | {n.removeprefix("p_") for n in arg_names}
    for line in comment.splitlines():
        match = _ARG_LINE.match(line)
        if match and match.group(1).lower() in known:
            texts[match.group(1).lower()] = match.group(2)
        else:
            keep.append(line)
    return "\n".join(keep).strip(), texts


def _register_type(catalog: Catalog, type_name: str) -> None:
    register_base_type(catalog.types, type_name, "PostgreSQL")


def _transitive(catalog: Catalog, facts: dict[str, BodyFacts]) -> None:
    """A routine calling another known routine is at least as strong as the one it calls."""
    by_name: dict[str, str] = {}
    for key in catalog.apis:
        base = key.split("(")[0]
        by_name.setdefault(base.lower(), key)
        by_name.setdefault(base.split(".", 1)[1].lower(), key)
    changed = True
    while changed:
        changed = False
        for key, fact in facts.items():
            api = catalog.apis[key]
            for called in fact.calls:
                target = by_name.get(called.lower())
                if target is None or target == key:
                    continue
                effect = catalog.apis[target].side_effect
                if _ORDER.index(effect) > _ORDER.index(api.side_effect):
                    api.side_effect = effect
                    api.extra["side_effect_reasons"] = [*api.extra["side_effect_reasons"], f"calls {target}"]
                    changed = True
