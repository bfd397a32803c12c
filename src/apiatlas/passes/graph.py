"""The graph pass: infer which output field of one kept API can feed an input of another, at four levels."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from apiatlas.catalog.compact import model_of_fields
from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, Catalog, DeclaredSource, Edge, EdgeLevel
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.graph_index import ApiField
from apiatlas.passes.graph_index import ProducerIndex as _ProducerIndex
from apiatlas.passes.graph_index import first_of_each as _first_of_each
from apiatlas.passes.graph_index import with_reason as _with_reason
from apiatlas.passes.types import is_generic_type, is_user_value_type

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")


_CAPPED = (EdgeLevel.NAME_TYPE, EdgeLevel.ALIAS, EdgeLevel.TYPE_ONLY)  # levels with a per-field cap
EdgeKey = tuple[str, str | None, str, str, str | None, str]  # producer, table, field, consumer, table, field


class _Found(NamedTuple):
    rank: int
    level: EdgeLevel
    domain_type: str
    reason: str


def output_fields(api: Api) -> list[ApiField]:
    """Columns of the API's output tables."""
    return [
        ApiField(api.key, api.object_key, t.name, c.name, c.domain_type, c.description, False)
        for t in api.output_tables
        for c in t.columns
    ]


def input_fields(api: Api) -> list[ApiField]:
    """Scalar parameters, then input-table columns (every column of an input table is required)."""
    fields = [
        ApiField(api.key, api.object_key, None, p.name, p.domain_type, p.description, p.required)
        for p in api.params
    ]
    fields += [
        ApiField(api.key, api.object_key, t.name, c.name, c.domain_type, c.description, True)
        for t in api.input_tables
        for c in t.columns
    ]
    return fields


def _dotted(f: ApiField) -> str:
    return f"{f.api}.{f.table}.{f.name}" if f.table else f"{f.api}.{f.name}"


class _GraphBuilder:
    """Indexes producers by field name and by specific domain type, then offers candidate edges."""

    def __init__(self, catalog: Catalog, config: BuildConfig) -> None:
        self.catalog = catalog
        self.config = config
        self.kept = catalog.kept_apis()
        self.folded_keys = {key.casefold(): key for key in sorted(catalog.apis, reverse=True)}
        # how many required inputs each producer needs: producers callable with less rank first
        self.reach = {a.key: sum(1 for f in input_fields(a) if f.required) for a in self.kept}
        self.producers = _ProducerIndex(
            [f for api in self.kept for f in output_fields(api)], self.reach, self._generic
        )
        self.aliases: dict[str, list[str]] = defaultdict(list)
        for rule in config.aliases:
            self.aliases[rule.consumer_field.casefold()].append(rule.producer_field)
        self.best: dict[EdgeKey, _Found] = {}
        # dangling references a source adapter already reported, by API: not reported twice
        self.reported: dict[str, list[str]] = defaultdict(list)
        for d in catalog.diagnostics:
            if d.code is ReasonCode.DANGLING_REFERENCE and d.location.anchor:
                self.reported[d.location.anchor].append(d.message)
        self.stats: dict[str, Any] = {
            "declared_dangling": 0,
            "declared_to_dropped": 0,
            # consumer fields that had more candidates than the per-field limit, by level
            "capped_fields": {lvl.value: 0 for lvl in _CAPPED},
            # candidate pairs those fields had beyond the cap (at most: the same API's own fields included)
            "capped_candidates": {lvl.value: 0 for lvl in _CAPPED},
            "cap_per_field": {
                EdgeLevel.NAME_TYPE.value: config.max_edges_per_consumer_field,
                EdgeLevel.ALIAS.value: config.max_edges_per_consumer_field,
                EdgeLevel.TYPE_ONLY.value: config.max_type_only_edges_per_field,
            },
        }

    def _generic(self, type_name: str) -> bool:
        return is_generic_type(self.catalog, self.config, type_name)

    def _user_value(self, type_name: str) -> bool:
        return is_user_value_type(self.catalog, self.config, type_name)

    def offer(self, producer: ApiField, consumer: ApiField, level: EdgeLevel, reason: str) -> None:
        if producer.api == consumer.api:
            return
        key: EdgeKey = (
            producer.api,
            producer.table,
            producer.name,
            consumer.api,
            consumer.table,
            consumer.name,
        )
        rank = EDGE_LEVEL_RANK[level]
        current = self.best.get(key)
        if current is None or rank < current.rank:
            self.best[key] = _Found(rank, level, consumer.domain_type or producer.domain_type, reason)

    # -- level 1: declared ---------------------------------------------------------------------------
    def declared(self, api: Api, inputs: list[ApiField]) -> None:
        from_overlay = api.overlay.depends_on if api.overlay is not None else []
        for source in api.declared_sources:
            origin = "overlay" if source in from_overlay else "documentation"
            where = (api.overlay.source if origin == "overlay" and api.overlay else None) or api.source
            self._declared_one(api, inputs, source, origin, where or Location())

    def _declared_one(
        self, api: Api, inputs: list[ApiField], source: DeclaredSource, origin: str, where: Location
    ) -> None:
        wanted = source.field.lstrip("@").casefold()
        consumers = [f for f in inputs if f.name.casefold() == wanted]
        table_part = f"{source.producer_table}." if source.producer_table else ""
        text = f"{source.field} ← {source.producer_api}.{table_part}{source.producer_field}"
        if not consumers:
            self._dangling(
                api, where, f"declared source {text!r}: {api.key} has no input field {source.field!r}"
            )
            return
        producer = self.catalog.apis.get(source.producer_api) or self._api_folded(source.producer_api)
        if producer is None:
            if any(source.producer_api in message for message in self.reported.get(api.key, ())):
                self.stats["declared_dangling"] += 1
            else:
                self._dangling(api, where, f"declared source {text!r}: no API {source.producer_api!r}")
            return
        if not producer.funnel.kept:
            self.stats["declared_to_dropped"] += 1
            return
        table = source.producer_table.casefold() if source.producer_table else None
        producers = [
            f
            for f in output_fields(producer)
            if f.name.casefold() == source.producer_field.casefold()
            and (table is None or (f.table or "").casefold() == table)
        ]
        if not producers:
            self._dangling(
                api,
                where,
                f"declared source {text!r}: {producer.key} has no output field {source.producer_field!r}",
            )
            return
        for p in producers:
            for c in consumers:
                self.offer(p, c, EdgeLevel.DECLARED, f"declared in the {origin}: {c.name} ← {_dotted(p)}")

    def _api_folded(self, key: str) -> Api | None:
        found = self.folded_keys.get(key.casefold())
        return self.catalog.apis[found] if found is not None else None

    def _dangling(self, api: Api, where: Location, message: str) -> None:
        self.stats["declared_dangling"] += 1
        self.catalog.add_diagnostic(
            Diagnostic(
                severity=Severity.WARNING,
                code=ReasonCode.DANGLING_REFERENCE,
                message=message,
                location=where if where.anchor else where.model_copy(update={"anchor": api.key}),
            )
        )

    # -- levels 2, 3 and 4: ranked candidates, at most ``limit`` new edges per consumer field per level ----
    def _rank(self, p: ApiField, c: ApiField) -> tuple[bool, int, str, str, str]:
        """Producers of the consumer's own business object first, then those needing fewer inputs."""
        return (p.object_key != c.object_key, self.reach[p.api], p.api, p.table or "", p.name)

    def _take(
        self,
        candidates: Iterable[tuple[ApiField, str]],
        c: ApiField,
        level: EdgeLevel,
        limit: int | None,
        offered: int = 0,
    ) -> None:
        """At most ``limit`` new edges from ``candidates`` (in rank order; ``offered``: how many there are
        at most, so what the cap drops is counted without reading the rest)."""
        rank = EDGE_LEVEL_RANK[level]
        taken = read = 0
        for p, reason in candidates:
            read += 1
            if p.api == c.api:
                continue
            key: EdgeKey = (p.api, p.table, p.name, c.api, c.table, c.name)
            current = self.best.get(key)
            if current is not None and current.rank <= rank:
                continue
            if limit is not None and taken == limit:
                self.stats["capped_fields"][level.value] += 1
                self.stats["capped_candidates"][level.value] += max(offered - read + 1, 1)
                return
            self.best[key] = _Found(rank, level, c.domain_type or p.domain_type, reason)
            taken += 1

    def by_name_type(self, c: ApiField) -> None:
        if not c.domain_type:
            return
        reason = f"same field name {c.name} and domain type {c.domain_type}"
        same = ((p, reason) for p in self.producers.named(c.name, c.domain_type, c.object_key))
        offered = self.producers.count_named(c.name, c.domain_type)
        self._take(same, c, EdgeLevel.NAME_TYPE, self.config.max_edges_per_consumer_field, offered)

    def by_alias(self, c: ApiField) -> None:
        if not c.domain_type:
            return
        own = c.name.casefold()
        streams: list[Iterator[tuple[ApiField, str]]] = []
        offered = 0
        for name in self.aliases.get(own, ()):
            if name.casefold() != own:
                offered += self.producers.count_named(name, c.domain_type)
                why = f"alias rule {c.name} ← {name} (config), domain type {c.domain_type}"
                streams.append(_with_reason(self.producers.named(name, c.domain_type, c.object_key), why))
        if self.config.description_aliases and c.description:
            for token in dict.fromkeys(_IDENTIFIER.findall(c.description)):
                if token.casefold() == own:
                    continue
                offered += self.producers.count_named(token, c.domain_type)
                why = (
                    f"description of {c.name} names {token} ({c.description!r}), domain type {c.domain_type}"
                )
                exact = (
                    p for p in self.producers.named(token, c.domain_type, c.object_key) if p.name == token
                )
                streams.append(_with_reason(exact, why))
        self._take(
            _first_of_each(streams, lambda item: self._rank(item[0], c)),
            c,
            EdgeLevel.ALIAS,
            self.config.max_edges_per_consumer_field,
            offered,
        )

    def by_type_only(self, c: ApiField) -> None:
        limit = self.config.max_type_only_edges_per_field
        if not c.domain_type or limit == 0 or self._generic(c.domain_type):
            return
        same_type = (
            (p, f"same specific domain type {c.domain_type} ({p.name} → {c.name})")
            for p in self.producers.typed(c.domain_type, c.object_key, but_not=c.name)
        )
        offered = self.producers.count_typed(c.domain_type, but_not=c.name)
        self._take(same_type, c, EdgeLevel.TYPE_ONLY, limit, offered)

    def build(self) -> list[Edge]:
        all_inputs: list[ApiField] = []
        for api in self.kept:
            inputs = input_fields(api)
            all_inputs += inputs
            self.declared(api, inputs)
            for c in inputs:
                self.by_name_type(c)
                self.by_alias(c)
        for c in all_inputs:  # after the stronger levels, so the cap counts only new pairs
            self.by_type_only(c)
        reasons: dict[str, str] = {}  # one string per distinct reason (a type-only one repeats per pair)
        edges = [
            model_of_fields(
                Edge,
                {
                    "producer": k[0],
                    "producer_table": k[1],
                    "producer_field": k[2],
                    "consumer": k[3],
                    "consumer_table": k[4],
                    "consumer_field": k[5],
                    "domain_type": f.domain_type,
                    "level": f.level,
                    "reason": reasons.setdefault(f.reason, f.reason),
                },
            )
            for k, f in self.best.items()
        ]
        edges.sort(key=edge_order)
        self._summarise(edges, all_inputs)
        return edges

    def _summarise(self, edges: list[Edge], inputs: list[ApiField]) -> None:
        fed = {(e.consumer, e.consumer_table, e.consumer_field) for e in edges}
        unfed = [c for c in inputs if c.required and (c.api, c.table, c.name) not in fed]
        stuck = {c.api for c in unfed if not self._user_value(c.domain_type)}
        touched = {e.consumer for e in edges} | {e.producer for e in edges}
        self.stats.update(
            {
                "edges": len(edges),
                "by_level": {lvl.value: sum(1 for e in edges if e.level is lvl) for lvl in EdgeLevel},
                "kept_apis": len(self.kept),
                "apis_fed": len({e.consumer for e in edges}),
                "apis_with_unfed_inputs": len({c.api for c in unfed}),
                "unfed_required_inputs": len(unfed),
                # a required input no edge feeds and no user can say: nothing can call the API
                "apis_unreachable": len(stuck),
                "apis_isolated": sum(1 for a in self.kept if a.key not in touched),
            }
        )


def edge_order(e: Edge) -> tuple[str, str, str, int, str, str, str]:
    """Deterministic order: by consumer field, strongest level first, then producer."""
    return (
        e.consumer,
        e.consumer_table or "",
        e.consumer_field,
        EDGE_LEVEL_RANK[e.level],
        e.producer,
        e.producer_table or "",
        e.producer_field,
    )


def build_graph(catalog: Catalog, config: BuildConfig) -> None:
    """Replace ``catalog.edges`` with the inferred edges and record ``stats["graph"]``."""
    builder = _GraphBuilder(catalog, config)
    catalog.edges = builder.build()
    catalog.stats["graph"] = builder.stats


def graph(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs after overlays (declared sources), the funnel (kept APIs only) and types (generic classes)."""
    build_graph(catalog, config)
    by_level = catalog.stats["graph"]["by_level"]
    context.progress(
        f"graph: {len(catalog.edges)} edges (" + ", ".join(f"{k} {v}" for k, v in by_level.items()) + ")"
    )
