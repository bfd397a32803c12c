"""Producers an input's description names, and codes fed by short names.

Producers an input's description names: "Location ID obtained from Tripadvisor's Search Restaurant
Location API", "The originSkyId code can be extracted from the Search Airport API". The edges from the
operation so named into that input become declared (the docs say where the value comes from): of the
operations whose name holds every word of the phrase, those with the fewest other words. No edge is
made, only the level of an edge the other passes found is raised.

Codes fed by short names: a required string input no edge feeds, whose description says it takes a
code ("ISO 3166-2 location code"), is fed by every output field named as a short name
(``short_name``, ``shortName``, ``abbreviation``) at the weakest level: the code of a thing the
request names by its full name comes from a lookup that gives both."""

from __future__ import annotations

import re

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Catalog, Edge, EdgeLevel
from apiatlas.passes.rest_names import words

_SAID = re.compile(
    r"\b(?:obtained|retrieved|extracted|returned|taken|fetched)\s+from\s+(?:the\s+)?"
    r"(?P<name>[\w' .-]{3,80}?)\s+(?:api|endpoint|operation)\b",
    re.IGNORECASE,
)
_ARTICLES = frozenset(("the", "a", "an", "s"))


def named_producers(description: str, names: dict[str, set[str]], consumer: str) -> set[str]:
    """The operations (keys of ``names``: each key's words) a description says an input's value comes
    from; empty when it names none."""
    match = _SAID.search(description)
    if match is None:
        return set()
    said = {w for w in words(match["name"].replace("'s", " ")) if w not in _ARTICLES}
    if not said:
        return set()
    holding = [(len(own - said), key) for key, own in names.items() if key != consumer and said <= own]
    fewest = min((n for n, _ in holding), default=None)
    return {key for n, key in holding if n == fewest}


def declare_said_producers(catalog: Catalog) -> int:
    """Raise to ``declared`` the edges from the producer an input's description names (its fields the
    other passes ranked best); returns how many."""
    kept = [api for api in catalog.apis.values() if api.funnel.kept]
    names = {api.key: set(words(api.key)) for api in kept}
    said: dict[tuple[str, str], set[str]] = {}
    for api in kept:
        for param in api.params:
            producers = named_producers(param.description or "", names, api.key)
            if producers:
                said[(api.key, param.name)] = producers
    named = [e for e in catalog.edges if e.producer in said.get((e.consumer, e.consumer_field), ())]
    best: dict[tuple[str, str, str], int] = {}
    for e in named:  # of the named producer's fields, those the other passes found best
        key = (e.producer, e.consumer, e.consumer_field)
        best[key] = min(best.get(key, 9), EDGE_LEVEL_RANK[e.level])
    raised = 0
    edges: list[Edge] = []
    for edge in catalog.edges:
        key = (edge.producer, edge.consumer, edge.consumer_field)
        if key in best and EDGE_LEVEL_RANK[edge.level] == best[key] and edge.level is not EdgeLevel.DECLARED:
            reason = f"{edge.reason}; the input's description names {edge.producer}"
            edge = edge.model_copy(update={"level": EdgeLevel.DECLARED, "reason": reason})
            raised += 1
        edges.append(edge)
    catalog.edges = edges
    return raised


_CODE_SAID = re.compile(r"\bcodes?\b", re.IGNORECASE)
_SHORT_NAMES = (["short", "name"], ["abbreviation"])


def codes_from_short_names(catalog: Catalog) -> list[Edge]:
    """Edges into the unfed required code inputs from the short-name fields (``type_only``)."""
    kept = [api for api in catalog.apis.values() if api.funnel.kept]
    fed = {(e.consumer, e.consumer_field) for e in catalog.edges}
    shorts = [
        (api, table.name, column)
        for api in kept
        for table in api.output_tables
        for column in table.columns
        if "[]" not in column.name and words(column.name.rsplit(".", 1)[-1]) in _SHORT_NAMES
    ]
    out: list[Edge] = []
    for api in kept if shorts else []:
        for param in api.params:
            json_type = param.json_schema.get("type", "string") if isinstance(param.json_schema, dict) else ""
            if not param.required or json_type != "string" or (api.key, param.name) in fed:
                continue
            if not _CODE_SAID.search(param.description or ""):
                continue
            why = f"{param.name} takes a code; the field is a short name"
            out.extend(
                Edge(
                    producer=producer.key,
                    producer_table=table,
                    producer_field=column.name,
                    consumer=api.key,
                    consumer_field=param.name,
                    domain_type=param.domain_type,
                    level=EdgeLevel.TYPE_ONLY,
                    reason=why,
                )
                for producer, table, column in shorts
                if producer.key != api.key
            )
    return out
