"""Producers an input's description names: "Location ID obtained from Tripadvisor's Search Restaurant
Location API", "The originSkyId code can be extracted from the Search Airport API". The edges from the
operation so named into that input become declared (the docs say where the value comes from): of the
operations whose name holds every word of the phrase, those with the fewest other words. No edge is
made, only the level of an edge the other passes found is raised."""

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
