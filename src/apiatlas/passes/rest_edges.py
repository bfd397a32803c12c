"""The REST edges pass: which response field of one operation feeds a parameter of another (HTTP sources).

Runs after the graph pass on catalogs whose source format says ``rest_passes`` and adds, at the
graph's confidence levels:

- ``name_type`` -- exact names: a response field's last name equals the parameter's name
  (``chapters[].chapter_number`` → ``{chapter_number}``), base JSON types agree;
- ``alias``     -- resource name + ``id``: the ``id`` of a resource feeds that resource's parameter
  (``results[].id`` of ``GET /search/author`` → ``{author_id}``; ``publishers[].id`` →
  ``{publisher_id}``); path hierarchy (the collection ``GET /pets`` feeds ``/pets/{pet_id}``);
  schema ``$ref`` identity (both fields typed by the same schema name, e.g. ``customer``);
- ``type_only`` -- shape: the ``id`` of list items whose fields mostly match a resource's own
  representation (``authors[]`` items look like ``GET /author/{author_id}``) feeds that resource's
  parameter (``rest_shapes.py``).

A resource is named by a path parameter (``author_id`` → ``author``, ``/customers/{customer}`` →
``customer``); its representation is the top-level fields of ``GET .../{that parameter}``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from apiatlas.catalog.compact import all_fields
from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, Catalog, Edge, EdgeLevel, Param
from apiatlas.language.catalog import described_id
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.rest_echo import names_into_searches
from apiatlas.passes.rest_items import LooseIds
from apiatlas.passes.rest_merge import graph_stats, merge_edges
from apiatlas.passes.rest_names import (
    PAGINATION,
    container_of,
    is_identifier,
    method_of,
    name_singular,
    nesting,
    param_resource,
    path_of,
    takes_ids,
    words,
)
from apiatlas.passes.rest_said import codes_from_short_names, declare_said_producers
from apiatlas.passes.rest_services import ids_within_services
from apiatlas.passes.rest_shapes import GENERIC_CONTAINERS, representations, shapes

CONSUMER_LOCATIONS = frozenset({"path", "query", "body"})
# past the cap of a required input, the top-level fields of reads (a price's ``product``: the one thing it
# refers to, read from the item the request states) still feed it: the lists ranked first fill the cap
# otherwise (an optional filter gets none: "the payment intents of this one's customer" was never asked).
# They have a cap of their own, the same (``_take``): in the static order, by key, 3 had stopped at the c's.
POOL = 200  # candidates per field name from other business objects (the best ranked by static order)
_JSON_TYPES = ("string", "integer", "number", "boolean", "object", "array")
_SCALARS = frozenset({"string", "integer", "number"})


@dataclass(frozen=True, slots=True)
class _Out:
    api: Api
    table: str
    field: str
    container: str
    leaf: str
    domain_type: str


class _RestGraph:
    """Indexes the kept APIs' response fields; offers candidate edges per consumer parameter and level."""

    def __init__(self, catalog: Catalog, config: BuildConfig) -> None:
        self.catalog = catalog
        self.config = config
        self.kept = catalog.kept_apis()
        self.limit = config.max_edges_per_consumer_field
        self.reach = {a.key: sum(1 for p in a.params if p.required) for a in self.kept}
        self.outs: list[_Out] = []
        for api in self.kept:
            for table in api.output_tables:
                for column in table.columns:
                    container, leaf = container_of(column.name)
                    self.outs.append(_Out(api, table.name, column.name, container, leaf, column.domain_type))
        order = {a.key: (method_of(a) != "GET", self.reach[a.key], a.key) for a in self.kept}
        self.outs.sort(key=lambda o: (order[o.api.key], o.field))
        self.by_leaf: dict[str, list[_Out]] = defaultdict(list)
        self.by_type: dict[str, list[_Out]] = defaultdict(list)
        # per field name: the fields of each business object, and the first POOL fields overall (lists first)
        self.by_leaf_object: dict[tuple[str, str], list[_Out]] = defaultdict(list)
        self.leaf_pool: dict[str, list[_Out]] = {}
        # keys of another kind kept below the flattened depth feed that kind's items (``rest_items``), not
        # every input of their leaf's name (a secret's ``name`` is no pod's)
        references = {a.key: frozenset(a.extra.get("reference_fields", ())) for a in self.kept}
        for o in self.outs:
            if o.field not in references[o.api.key]:
                self.by_leaf[o.leaf.casefold()].append(o)
                self.by_leaf_object[(o.leaf.casefold(), o.api.object_key)].append(o)
            if o.domain_type and not self._plain(o.domain_type):
                self.by_type[o.domain_type].append(o)
        for leaf, outs in self.by_leaf.items():
            self.leaf_pool[leaf] = sorted(outs, key=lambda o: not o.container.endswith("[]"))[:POOL]
        self._owners: dict[tuple[str, str], tuple[str | None, str]] = {}
        self._circulars: dict[tuple[str, str, str | None], bool] = {}
        self._resources: dict[tuple[str, str], str | None] = {}
        self._path_resources: dict[tuple[str, bool], str | None] = {}
        self._ids_by_owner: dict[str, list[_Out]] | None = None
        self._pools: dict[int, dict[str, tuple[dict[str, list[_Out]], list[_Out]]]] = {}
        self.resources = {
            r
            for a in self.kept
            for p in a.params
            if p.location in CONSUMER_LOCATIONS
            if (r := param_resource(a, p) or described_id(p.name, p.description))
        }  # and an input named a bare noun its description says the id of ("ID of file to delete")
        self.representation = representations(self.kept)
        self.best: dict[tuple[str, str, str, str, str], tuple[int, EdgeLevel, str, str]] = {}

    # -- types ------------------------------------------------------------------------------------------
    def _plain(self, domain_type: str) -> bool:
        return domain_type.split(":", 1)[0] in _JSON_TYPES

    def base(self, domain_type: str) -> str:
        head = domain_type.split(":", 1)[0]
        if head in _JSON_TYPES:
            return head
        known = self.catalog.types.get(domain_type)
        kind = known.json_schema.get("type") if known is not None else None
        return kind if isinstance(kind, str) else "string"

    def compatible(self, a: str, b: str) -> bool:
        """Same JSON type, both numbers, or both identifiers (a spec may type one string, one number)."""
        x, y = self.base(a), self.base(b)
        return x == y or {x, y} <= {"integer", "number"} or (is_identifier(a) and is_identifier(b))

    # -- resources --------------------------------------------------------------------------------------
    def owner(self, o: _Out) -> tuple[str | None, str]:
        """The resource whose ``id`` the field is: from its list's name, else the operation's path."""
        key = (o.api.key, o.field)
        if key not in self._owners:
            self._owners[key] = self._owner(o)
        return self._owners[key]

    def resource_of(self, api: Api, param: Param) -> str | None:
        key = (api.key, param.name)
        if key not in self._resources:
            self._resources[key] = param_resource(api, param)
        return self._resources[key]

    def candidates(self, name: str, consumer: Api) -> list[_Out]:
        """Fields called ``name``: all of the consumer's business object, the best ``POOL`` of the others."""
        own = self.by_leaf_object.get((name, consumer.object_key), [])
        return own + [o for o in self.leaf_pool.get(name, ()) if o.api.object_key != consumer.object_key]

    def _pooled(self, index: dict[str, list[_Out]], key: str, consumer: Api) -> list[_Out]:
        """``index[key]`` as ``candidates`` takes it: all of the consumer's business object, the first
        ``POOL`` of the others (static order), so a consumer's cost does not grow with the catalog."""
        outs = index.get(key, ())
        if len(outs) <= POOL:
            return list(outs)
        pools = self._pools.setdefault(id(index), {})
        if key not in pools:
            by_object: dict[str, list[_Out]] = defaultdict(list)
            for o in outs:
                by_object[o.api.object_key].append(o)
            pools[key] = (by_object, list(outs[:POOL]))
        by_object, first = pools[key]
        own = consumer.object_key
        return by_object.get(own, []) + [o for o in first if o.api.object_key != own]

    def _owner(self, o: _Out) -> tuple[str | None, str]:
        name = o.container.rsplit(".", 1)[-1].replace("[]", "")
        if name:
            whole = name_singular(name)
            if whole in self.resources:
                return whole, f"list {name} names the resource {whole}"
            tail = words(name)[-1] if words(name) else ""
            if tail in self.resources:
                return tail, f"list {name} names the resource {tail}"
            if name.casefold() not in GENERIC_CONTAINERS or "." in o.container:
                return None, ""
            word = self.path_resource(o.api, listed=True)
            return (word, f"{o.api.key} lists {word} items (its path)") if word else (None, "")
        word = self.path_resource(o.api)
        return (word, f"{o.api.key} is about {word} (its path)") if word else (None, "")

    # -- candidates ------------------------------------------------------------------------------------
    def offer(self, o: _Out, consumer: Api, param: Param, level: EdgeLevel, reason: str) -> bool:
        if o.api.key == consumer.key:
            return False
        key = (o.api.key, o.table, o.field, consumer.key, param.name)
        rank = EDGE_LEVEL_RANK[level]
        current = self.best.get(key)
        if current is not None and current[0] <= rank:
            return False
        self.best[key] = (rank, level, param.domain_type or o.domain_type, reason)
        return True

    def _circular(self, producer: Api, param: Param, resource: str | None) -> bool:
        """The producer itself needs the value it feeds (``GET /books/{book_id}/images`` for ``book_id``)."""
        key = (producer.key, param.name, resource)
        if key not in self._circulars:
            self._circulars[key] = any(
                p.required
                and (
                    p.name == param.name
                    or (resource is not None and self.resource_of(producer, p) == resource)
                )
                for p in producer.params
            )
        return self._circulars[key]

    def _take(
        self,
        found: list[tuple[_Out, str]],
        consumer: Api,
        param: Param,
        level: EdgeLevel,
        resource: str | None = None,
    ) -> None:
        """At most ``limit`` new edges; first: same resource, not needing this value, lists, own object."""
        own = consumer.object_key
        ranked = sorted(
            found,
            key=lambda f: (
                resource is not None and self.path_resource(f[0].api) != resource,
                self._circular(f[0].api, param, resource),
                nesting(f[0].field),
                f[0].api.object_key != own,
                method_of(f[0].api) != "GET",
                self.reach[f[0].api.key],
            ),
        )
        taken, rest = 0, len(ranked)
        for index, (o, reason) in enumerate(ranked):
            if self.limit is not None and taken >= self.limit:
                rest = index
                break
            if self.offer(o, consumer, param, level, reason):
                taken += 1
        if rest < len(ranked) and param.required:  # past the cap: reads' own references, a cap of their own
            references = [f for f in ranked[rest:] if _own_reference(f[0])]
            beyond = 0
            for o, reason in references:
                if beyond >= (self.limit or 0):
                    return
                beyond += 1 if self.offer(o, consumer, param, level, reason) else 0

    def exact_names(self, consumer: Api, param: Param, resource: str | None, loose: bool = False) -> None:
        """Required or identifying scalar parameters only (optional filters and bodies would flood it);
        ``loose``: an optional one a spec declaring its inputs loosely needs (``LooseIds.needed``)."""
        name = param.name.casefold()
        if name in PAGINATION or self.base(param.domain_type) in ("object", "array"):
            return
        loose = loose and not (param.required or resource is not None)
        if not (param.required or resource is not None or loose):
            return
        found = [
            (o, f"same name {param.name} ({o.field}), JSON type {self.base(param.domain_type)}")
            for o in self.candidates(name, consumer)
            if self.compatible(o.domain_type, param.domain_type)
            or (loose and {self.base(o.domain_type), self.base(param.domain_type)} <= _SCALARS)
        ]  # a spec declaring its inputs loosely types them loosely too (``ts``: a string out, a number in)
        # producers about the same resource first (GET .../shelves for .../shelves/{name})
        self._take(found, consumer, param, EdgeLevel.NAME_TYPE, resource)

    def path_resource(self, api: Api, *, listed: bool = False) -> str | None:
        """The last known resource named by a literal segment of the API's path.

        ``listed``: what the API's list holds, so a sub-collection of an item (``/books/{book_id}/keywords``)
        names no resource unless its own segment does, while a qualifier (``/books/popular``) is skipped.
        """
        key = (api.key, listed)
        if key not in self._path_resources:
            self._path_resources[key] = self._path_resource(api, listed)
        return self._path_resources[key]

    def _path_resource(self, api: Api, listed: bool) -> str | None:
        segments = path_of(api).strip("/").split("/")
        for at in range(len(segments) - 1, -1, -1):
            segment = segments[at]
            if segment.startswith("{"):
                continue
            for word in reversed(words(segment)):
                if word in self.resources:
                    return word
            if listed and at > 0 and segments[at - 1].startswith("{"):
                return None
        return None

    def resource_ids(self, consumer: Api, param: Param, resource: str) -> None:
        found: list[tuple[_Out, str]] = []
        consumer_path = path_of(consumer)
        if self._ids_by_owner is None:
            self._ids_by_owner = defaultdict(list)
            for o in self.by_leaf.get("id", ()):
                owner = self.owner(o)[0]
                if owner is not None:
                    self._ids_by_owner[owner].append(o)
        for o in self._pooled(self._ids_by_owner, resource, consumer):
            if not self.compatible(o.domain_type, param.domain_type):
                continue
            why = self.owner(o)[1]
            producer_path = path_of(o.api)
            if consumer_path.startswith(producer_path.rstrip("/") + "/") and o.container.endswith("[]"):
                why = f"path hierarchy: {producer_path} lists the {resource} items of {consumer_path}"
            found.append((o, f"{o.field} is the id of {resource} ({why}) → {param.name}"))
        for leaf in (f"{resource}_id", f"{resource}id"):
            for o in self.candidates(leaf, consumer):
                if o.leaf.casefold() != param.name.casefold() and self.compatible(
                    o.domain_type, param.domain_type
                ):
                    found.append((o, f"{o.field} names the {resource} id → {param.name}"))
        self._take(found, consumer, param, EdgeLevel.ALIAS, resource)

    def ref_identity(self, consumer: Api, param: Param) -> None:
        if not param.domain_type or self._plain(param.domain_type):
            return
        found = [
            (o, f"schema $ref identity: {o.field} and {param.name} are both {param.domain_type}")
            for o in self._pooled(self.by_type, param.domain_type, consumer)
        ]
        self._take(found, consumer, param, EdgeLevel.ALIAS)

    def build(self) -> list[Edge]:
        by_resource: dict[str, list[tuple[Api, Param]]] = defaultdict(list)
        loose = LooseIds(self)
        for api in self.kept:
            for param in api.params:
                if param.location not in CONSUMER_LOCATIONS:
                    continue
                resource = self.resource_of(api, param)
                self.exact_names(api, param, resource, loose.needed(api, param))
                loose.qualified_names(api, param)
                loose.scalar_lists(api, param)
                loose.described_fields(api, param)
                loose.tail_names(api, param)
                if resource is not None:
                    loose.item_names(api, param, resource)
                    loose.kind_names(api, param, resource)
                self.ref_identity(api, param)
                if resource is not None and takes_ids(param, resource):
                    self.resource_ids(api, param, resource)
                    by_resource[resource].append((api, param))
                elif resource is None and (named := loose.resource_named(param)) is not None:
                    self.resource_ids(api, param, named)
        shapes(self, by_resource)
        return [
            Edge.model_construct(
                _fields_set=all_fields(Edge),
                producer=k[0],
                producer_table=k[1],
                producer_field=k[2],
                consumer=k[3],
                consumer_table=None,
                consumer_field=k[4],
                domain_type=v[2],
                level=v[1],
                reason=v[3],
            )
            for k, v in self.best.items()
        ]


def build_rest_edges(catalog: Catalog, config: BuildConfig) -> int:
    """Add the REST edges to ``catalog.edges`` and refresh ``stats["graph"]``; returns how many were new."""
    before = len(catalog.edges)
    catalog.edges = merge_edges(catalog.edges, _RestGraph(catalog, config).build())
    declare_said_producers(catalog)  # the producer an input's description names (``rest_said``)
    catalog.edges = merge_edges(catalog.edges, codes_from_short_names(catalog))
    searched = names_into_searches(catalog, config.max_type_only_edges_per_field)  # ``rest_echo``
    catalog.edges = merge_edges(catalog.edges, searched)
    ids_within_services(catalog)  # ``rest_services``: no identifier crosses from one host to another
    catalog.stats["graph"] = graph_stats(catalog, config, catalog.stats.get("graph", {}))
    return len(catalog.edges) - before


def rest_edges(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs after the graph pass (its edges are kept, a stronger level wins), before entry points."""
    if not context.source_of(catalog).rest_passes:
        return
    added = build_rest_edges(catalog, config)
    context.progress(f"rest edges: {added} added, {len(catalog.edges)} in all")


def _own_reference(o: _Out) -> bool:
    """A top-level field of a read taking an input (``product`` of ``GET /prices/{price}``)."""
    return "[]" not in o.field and "." not in o.field and method_of(o.api) == "GET" and o.api.params != []
