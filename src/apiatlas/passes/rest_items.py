"""REST edges for ids a spec declares loosely: a role-qualified or alternatives name (``originSkyId`` ←
``skyId``, ``username_or_url`` ← ``username``), the item key of a resource's own collection
(``items[].metadata.name`` of ``GET /api/v1/namespaces`` → ``{namespace}``) and a list named for a
resource whose items are bare values (``channels[]`` of ``GET /conversations.list`` → ``channel``).
Used by the REST edges pass (``rest_edges.py``)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from apiatlas.catalog.model import Api, EdgeLevel, Param
from apiatlas.passes.rest_names import method_of, path_of, qualified_leaves, singular, words

if TYPE_CHECKING:
    from apiatlas.passes.rest_edges import _Out, _RestGraph

ITEM_NAME_KEYS = frozenset({"name", "metadata.name"})  # how an item of a collection names itself


def _collection_of(api: Api) -> str | None:
    """The resource a ``GET`` collection lists: its last path segment, singular, when it ends the path
    (``/api/v1/namespaces`` → namespace; not ``/namespaces/{name}``)."""
    if method_of(api) != "GET":
        return None
    segments = [s for s in path_of(api).strip("/").split("/") if s]
    if not segments or segments[-1].startswith("{"):
        return None
    tail = words(segments[-1].split(".")[0])
    return tail[-1] if tail else None


def _item_key(o: _Out) -> str | None:
    """``items[].metadata.name`` → ``metadata.name``: the field's path inside one list item."""
    head, sep, rest = o.field.partition("[].")
    return rest if sep and "[]" not in rest and head and "." not in head else None


class LooseIds:
    """The two indexes, built once per pass: item names by the resource whose collection lists them,
    bare-value lists by the resource they are named for."""

    def __init__(self, graph: _RestGraph) -> None:
        self.graph = graph
        self.names: dict[str, list[_Out]] = defaultdict(list)
        self.values: dict[str, list[_Out]] = defaultdict(list)
        for o in graph.outs:
            resource = _collection_of(o.api) if _item_key(o) in ITEM_NAME_KEYS else None
            if resource is not None:
                self.names[resource].append(o)
            bare = o.field.rstrip("[]")
            if o.field.endswith("[]") and "." not in bare and graph.base(o.domain_type) == "string":
                self.values[singular(bare)].append(o)

    def qualified_names(self, consumer: Api, param: Param) -> None:
        """A parameter named as a field with a qualifier before it (``originSkyId`` ← ``skyId``,
        ``destinationEntityId`` ← ``entityId``) or as alternatives (``username_or_id_or_url`` ←
        ``username``): an identifier or alternative named whole, at a word boundary."""
        if not param.required or self.graph.base(param.domain_type) in ("object", "array"):
            return
        found: list[tuple[_Out, str]] = []
        for leaf in qualified_leaves(param.name):
            for o in self.graph.candidates(leaf.casefold(), consumer):
                if o.leaf == leaf and self.graph.compatible(o.domain_type, param.domain_type):
                    found.append((o, f"{param.name} names the field {leaf} ({o.field})"))
        self.graph._take(found, consumer, param, EdgeLevel.ALIAS)

    def item_names(self, consumer: Api, param: Param, resource: str) -> None:
        """A parameter naming a resource (``{namespace}``, not an ``…_id``) fed by the name of each item
        of that resource's own collection, at the exact-name level: the item's own
        ``metadata.namespace`` names something else."""
        if param.name.casefold() != resource or not param.required:
            return
        found = [
            (o, f"{o.field} names each {resource} {o.api.key} lists → {param.name}")
            for o in self.names.get(resource, ())
            if self.graph.compatible(o.domain_type, param.domain_type)
        ]
        self.graph._take(found, consumer, param, EdgeLevel.NAME_TYPE, resource)

    def scalar_lists(self, consumer: Api, param: Param) -> None:
        """A parameter named as a resource (``channel``) fed by a list of bare values named for it
        (``channels[]``: the spec gives its items no fields, so each item is the resource's id)."""
        name = param.name.casefold()
        if not param.required or self.graph.base(param.domain_type) != "string" or "_" in name:
            return
        found = [
            (o, f"{o.field}: a list of {name} values → {param.name}")
            for o in self.values.get(name, ())
            if o.field.rstrip("[]").casefold() != name
        ]
        self.graph._take(found, consumer, param, EdgeLevel.ALIAS)
