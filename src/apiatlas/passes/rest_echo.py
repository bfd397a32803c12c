"""Search texts fed by the name of the thing another API found.

An API whose output holds an object with its own name (``location.name``, not a list's) answers about
the thing its search text named: the text it was given is the name that object gives back. So a search
text input (``q``, ``query``, ``search_term`` …) takes the name another API's object of that kind gives,
the kind read from the consumer itself — the objects named in its own output, or the words of the input's
description ("Search query for location (e.g., city name)", "Name of the location where …"). Made at the
weakest level (``type_only``): a place looked up once and then searched by its name, as a later call on
the place the first call found. Only objects' ``name`` fields feed, never a bare top-level ``name`` (what
that names is not said)."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api, Catalog, Edge, EdgeLevel, Param
from apiatlas.passes.rest_names import words

_SEARCH_TEXT = re.compile(r"^(?:search)?(?:query|q|term|keyword|text)$|^search$")


def search_text(name: str) -> bool:
    """``q``, ``query``, ``search_query``, ``searchTerm``, ``keyword``: an input taking free text."""
    return bool(_SEARCH_TEXT.match(re.sub(r"[^a-z]", "", name.lower())))


def _named_objects(api: Api) -> list[tuple[str, str, frozenset[str]]]:
    """(table, field, the object's words) of each ``<object>.name`` output field outside any list."""
    out = []
    for table in api.output_tables:
        for column in table.columns:
            head, _, leaf = column.name.rpartition(".")
            if head and leaf.lower() == "name" and "[]" not in column.name:
                out.append((table.name, column.name, frozenset(words(head.rsplit(".", 1)[-1]))))
    return out


def _edge(api: Api, param: Param, producer: str, table: str, field: str, kind: frozenset[str]) -> Edge:
    return Edge(
        producer=producer, producer_table=table, producer_field=field, consumer=api.key,
        consumer_field=param.name, domain_type=param.domain_type, level=EdgeLevel.TYPE_ONLY,
        reason=f"{param.name} searches by name; {field} names the {' '.join(sorted(kind))} found",
    )  # fmt: skip


def names_into_searches(catalog: Catalog, limit: int = 10) -> list[Edge]:
    """Edges from other APIs' ``<object>.name`` fields into the required search texts of the APIs whose own
    output or input description names that object's kind (``type_only``), at most ``limit`` into one input
    (``BuildConfig.max_type_only_edges_per_field``, as for any type-only edge: in a catalog of many searches
    of one kind each would feed every other): producers of the kind the consumer's own output names first,
    then those needing fewer inputs."""
    kept = [api for api in catalog.apis.values() if api.funnel.kept]
    named = {api.key: _named_objects(api) for api in kept}
    by_kind: dict[frozenset[str], list[tuple[str, str, str]]] = {}
    for producer, fields in named.items():
        for table, field, kind in fields:
            if kind:
                by_kind.setdefault(kind, []).append((producer, table, field))
    if not by_kind or limit <= 0:
        return []
    reach = {api.key: sum(1 for p in api.params if p.required) for api in kept}
    out: list[Edge] = []
    for api in kept:
        own = frozenset(w for _, _, kind in named[api.key] for w in kind)
        for param in api.params:
            if not param.required or not search_text(param.name):
                continue
            kinds = own | frozenset(words(param.description or ""))
            offered = [
                (not kind <= own, reach[producer], producer, field, table, kind)
                for kind, fields in by_kind.items()
                if kind <= kinds
                for producer, table, field in fields
                if producer != api.key
            ]
            taken = sorted(offered, key=lambda o: o[:5])[:limit]
            out.extend(_edge(api, param, p, t, f, k) for _, _, p, f, t, k in taken)
    return out
