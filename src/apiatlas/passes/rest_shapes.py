"""REST edges at the ``type_only`` level: the ``id`` of list items shaped like a resource's own
representation (``authors[]`` items look like ``GET /author/{author_id}``), or of a list whose operation
takes a parameter whose enum names resources (``item_type``: book, album, author), feeds that resource's
parameters. Used by the REST edges pass (``rest_edges.py``)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from apiatlas.catalog.model import Api, EdgeLevel, Param
from apiatlas.passes.rest_names import method_of, name_singular, param_resource, path_of

if TYPE_CHECKING:
    from apiatlas.passes.rest_edges import _Out, _RestGraph

# lists whose name says nothing about their items: the operation's path says what they hold
GENERIC_CONTAINERS = frozenset(
    {"", "results", "items", "data", "list", "records", "entries", "hits", "objects", "values"}
)
MIN_SHAPE_COMMON = 3
MIN_SHAPE_SHARE = 0.5


def representations(kept: list[Api]) -> dict[str, set[str]]:
    """Top-level response fields of ``GET .../{param}`` for each resource (the shortest such path)."""
    found: dict[str, tuple[int, set[str]]] = {}
    for api in kept:
        path = path_of(api)
        if method_of(api) != "GET" or not path.endswith("}") or not api.output_tables:
            continue
        last = path.rsplit("{", 1)[-1].rstrip("}")
        param = next((p for p in api.params if p.name == last), None)
        resource = param_resource(api, param) if param is not None else None
        if resource is None:
            continue
        keys = {re.split(r"[.\[]", c.name, maxsplit=1)[0] for t in api.output_tables for c in t.columns}
        if resource not in found or len(path) < found[resource][0]:
            found[resource] = (len(path), keys)
    return {r: keys for r, (_, keys) in found.items()}


def shapes(graph: _RestGraph, consumers: dict[str, list[tuple[Api, Param]]]) -> None:
    """``id`` of list items shaped like a resource's representation → that resource's parameters."""
    items: dict[tuple[str, str], set[str]] = defaultdict(set)
    ids: dict[tuple[str, str], _Out] = {}
    for o in graph.outs:
        rest = o.field[len(o.container) :].lstrip(".")
        if "." in rest or "[]" in rest.rstrip("[]"):
            continue
        items[(o.api.key, o.container)].add(o.leaf)
        if o.leaf == "id":
            ids[(o.api.key, o.container)] = o
    for key, o in sorted(ids.items()):
        if graph.owner(o)[0] is not None:
            continue
        _enumerated_kinds(graph, o, consumers)
        keys = items[key] - {"id"}
        scored = []
        for resource, rep in graph.representation.items():
            common = keys & rep
            if len(common) >= MIN_SHAPE_COMMON and len(common) / max(len(keys), 1) >= MIN_SHAPE_SHARE:
                scored.append(((len(common) / len(keys), len(common) / len(rep)), resource, len(common)))
        if not scored:
            continue
        top = max(s[0] for s in scored)
        for share, resource, shared in scored:
            if share < top:
                continue
            why = (
                f"{o.field}: items share {shared} of {len(keys)} fields with a {resource}, "
                f"so the id of a {resource}"
            )
            _offer_ids(graph, o, consumers.get(resource, ()), why)


def _enumerated_kinds(graph: _RestGraph, o: _Out, consumers: dict[str, list[tuple[Api, Param]]]) -> None:
    """A parameter whose enum names resources (``item_type``: book, album, author) says what ids are."""
    if o.container.rsplit(".", 1)[-1].replace("[]", "").casefold() not in GENERIC_CONTAINERS:
        return
    for p in o.api.params:
        values = p.json_schema.get("enum") if isinstance(p.json_schema, dict) else None
        if not isinstance(values, list):
            continue
        kinds = [name_singular(str(v)) for v in values if name_singular(str(v)) in graph.resources]
        if len(kinds) < 2:
            continue
        for resource in kinds:
            why = (
                f"{o.field}: parameter {p.name} selects the kind of item ({', '.join(kinds)}), "
                f"so a {resource} id"
            )
            _offer_ids(graph, o, consumers.get(resource, ()), why)


def _offer_ids(graph: _RestGraph, o: _Out, consumers: Iterable[tuple[Api, Param]], why: str) -> None:
    """The field ``o`` as the id of one resource, to each of its consumers of a compatible type."""
    for consumer, param in consumers:
        if graph.compatible(o.domain_type, param.domain_type):
            graph.offer(o, consumer, param, EdgeLevel.TYPE_ONLY, why)
