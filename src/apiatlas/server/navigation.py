"""Read-only navigation of a snapshot: objects, APIs, contracts, search, dependency chains as results."""

from __future__ import annotations

import difflib
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, EdgeLevel, SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.passes.types import input_schema
from apiatlas.server import bounds
from apiatlas.server.config import ServerConfig
from apiatlas.server.cursors import decode_cursor, page_info
from apiatlas.server.edges_view import edge_to_dependency, strongest
from apiatlas.server.results import (
    ApiContract,
    ApiSummary,
    ColumnInfo,
    Dependency,
    DependencyChainResult,
    DescribeApiResult,
    ErrorInfo,
    ListApisResult,
    ListObjectsResult,
    ObjectSummary,
    SearchHitInfo,
    SearchResult,
    TableInfo,
)
from apiatlas.snapshot import Snapshot

if TYPE_CHECKING:
    from apiatlas.search.hybrid import HybridSearch

Confidence = Literal["declared", "name_type", "alias", "type_only"]
MAX_CHAIN_LINKS = 40  # field mappings in one dependency_chain answer


def not_executable_reason(api: Api, writes_enabled: bool = False) -> str | None:
    """Why this API cannot be called through the server, or None when it can.

    ``writes_enabled``: an operator enabled this write API for the caller's role (apiatlas.security),
    which also asks the user to confirm every call.
    """
    if not api.funnel.kept:
        stage = api.funnel.dropped_at or "funnel"
        return f"dropped by the funnel at stage '{stage}'" + (
            f": {api.funnel.reason}" if api.funnel.reason else ""
        )
    if api.incomplete_contract:
        return f"INCOMPLETE_CONTRACT: {api.incomplete_contract}"
    if api.side_effect is not SideEffect.READ and not writes_enabled:
        return f"side effect '{api.side_effect.value}': only read APIs are callable on this server"
    return None


class Navigator:
    """Answers the navigation tools from one open snapshot."""

    def __init__(self, snapshot: Snapshot, config: ServerConfig, prefix: str) -> None:
        self.snapshot = snapshot
        self.config = config
        self.prefix = prefix
        self._json_types: dict[str, str] = {}

    @cached_property
    def _search_index(self) -> HybridSearch:
        """Hybrid search when the snapshot's vectors can be matched (its bundled model, or the endpoint
        the config's ``embedding`` names), else lexical with abstention."""
        from apiatlas.search.hybrid import HybridSearch, query_provider

        return HybridSearch(self.snapshot, query_provider(self.snapshot, self.config.embedding))

    # ---- names -------------------------------------------------------------------------------

    @cached_property
    def _object_keys(self) -> list[str]:
        objects, _ = self.snapshot.list_objects(0, 1_000_000)
        return [o.key for o in objects]

    @cached_property
    def _api_keys(self) -> list[str]:
        return self.snapshot.all_api_keys(include_dropped=True)

    def suggest_apis(self, name: str, limit: int = 5) -> list[str]:
        """Close API names (difflib on keys, then search hits) for an unknown name."""
        close = difflib.get_close_matches(name, self._api_keys, n=limit, cutoff=0.6)
        if len(close) < limit and name.strip():
            for hit in self.snapshot.search(name, limit=limit):
                if hit.api_key not in close:
                    close.append(hit.api_key)
        return close[:limit]

    def writes_enabled(self, api_key: str) -> bool:
        """Whether the snapshot view (a role's, apiatlas.security) enables this write API; never otherwise."""
        enabled = getattr(self.snapshot, "writes_enabled", None)
        return bool(enabled(api_key)) if callable(enabled) else False

    def resolve_api(self, name: str) -> Api | DescribeApiResult:
        """The API named ``name``, or an UNKNOWN_API result with close names."""
        api = self.snapshot.get_api(name) if name.strip() else None
        if api is not None:
            return api
        suggestions = self.suggest_apis(name)
        return DescribeApiResult(
            status="error",
            reason=ReasonCode.UNKNOWN_API,
            message=f"no API named '{name}' in this catalog",
            suggestions=suggestions,
            next_actions=(
                [f"did you mean {', '.join(suggestions)}? call {self.prefix}describe_api with one of them"]
                if suggestions
                else [f"call {self.prefix}search with words describing what you need"]
            ),
        )

    # ---- tools -------------------------------------------------------------------------------

    def list_business_objects(self, cursor: str | None) -> ListObjectsResult:
        offset = decode_cursor(cursor, "objects")
        objects, total = self.snapshot.list_objects(offset, self.config.page_size)
        paging = page_info("objects", cursor, offset, len(objects), total, "business objects")
        result = ListObjectsResult(
            objects=[
                ObjectSummary(
                    key=o.key, name=o.name, title=o.title, api_count=self.snapshot.object_api_count(o.key)
                )
                for o in objects
            ],
            paging=paging,
            message=f"{len(objects)} of {total} business objects",
            next_actions=[f"call {self.prefix}list_apis with an object key to see its APIs"],
        )
        if paging.truncated:
            result.reason = ReasonCode.TRUNCATED
            result.next_actions.append(paging.how_to_continue or "")
        if total == 0:
            result.status, result.reason = "error", ReasonCode.NO_MATCH
            result.message = "the snapshot holds no business object with a callable API"
            result.next_actions = [f"call {self.prefix}search with what you need"]
        return result

    def list_apis(self, object_key: str, cursor: str | None) -> ListApisResult:
        obj = self.snapshot.get_object(object_key)
        if obj is None:
            close = difflib.get_close_matches(object_key, self._object_keys, n=5, cutoff=0.5)
            return ListApisResult(
                status="error",
                reason=ReasonCode.UNKNOWN_OBJECT,
                object_key=object_key,
                message=f"no business object with key '{object_key}'",
                suggestions=close,
                next_actions=[f"call {self.prefix}list_business_objects to see the keys"]
                + ([f"did you mean {', '.join(close)}?"] if close else []),
            )
        scope = f"apis:{obj.key}"
        offset = decode_cursor(cursor, scope)
        apis, total = self.snapshot.list_apis(obj.key, offset, self.config.page_size)
        paging = page_info(scope, cursor, offset, len(apis), total, "APIs")
        result = ListApisResult(
            object_key=obj.key,
            apis=[
                ApiSummary(
                    key=a.key, title=a.title, side_effect=a.side_effect.value, entry_point=a.entry_point
                )
                for a in apis
            ],
            paging=paging,
            message=f"{len(apis)} of {total} APIs of {obj.key} ({obj.title})",
            next_actions=[f"call {self.prefix}describe_api with an API key for its full contract"],
        )
        if paging.truncated:
            result.reason = ReasonCode.TRUNCATED
            result.next_actions.append(paging.how_to_continue or "")
        if total == 0:
            result.status, result.reason = "error", ReasonCode.NO_MATCH
            result.message = f"{obj.key} has no callable API"
            result.next_actions = [f"call {self.prefix}search with what you need"]
        return result

    def describe_api(self, name: str) -> DescribeApiResult:
        found = self.resolve_api(name)
        if isinstance(found, DescribeApiResult):
            return found
        api = found
        why_not = not_executable_reason(api, self.writes_enabled(api.key))
        edges, omitted = strongest(self.snapshot.edges_into(api.key, min_rank=4), "upstream")
        overlay = api.overlay
        contract = ApiContract(
            key=api.key,
            object_key=api.object_key,
            title=api.title,
            description=api.description,
            side_effect=api.side_effect.value,
            executable=why_not is None,
            not_executable_reason=why_not,
            input_schema=input_schema(api),
            output_tables=[
                TableInfo(
                    name=t.name,
                    description=t.description or None,
                    columns=[
                        ColumnInfo(
                            name=c.name,
                            domain_type=c.domain_type,
                            type=self._json_type(c.domain_type),
                            description=c.description or None,
                        )
                        for c in t.columns
                    ],
                )
                for t in api.output_tables
            ],
            errors=[ErrorInfo(code=e.code, description=e.description or None) for e in api.errors],
            when_to_use=list(overlay.when_to_use) if overlay else [],
            important=list(overlay.important) if overlay else [],
            depends_on=[edge_to_dependency(e) for e in edges],
        )
        actions = []
        if why_not is not None:
            actions.append(
                f"this API is not executable ({why_not}); look for a sibling with {self.prefix}list_apis"
            )
        elif contract.depends_on and not api.entry_point:
            actions.append(
                f"inputs come from other APIs: call {self.prefix}dependency_chain to plan, "
                f"then {self.prefix}execute_chain"
            )
        else:
            actions.append(f"call {self.prefix}execute_api with arguments matching input_schema")
        return DescribeApiResult(
            api=contract,
            message=f"{api.key}: {api.title}"
            + (
                f" ({omitted} weaker candidate producers not shown; {self.prefix}dependency_chain lists them)"
                if omitted
                else ""
            ),
            reason=ReasonCode.NOT_EXECUTABLE if why_not else None,
            next_actions=actions,
        )

    def search(self, query: str, object_key: str | None, limit: int | None) -> SearchResult:
        """Exact API names first (the snapshot's search puts them there), then full-text rank."""
        limit = max(1, min(limit or self.config.search_limit, 100))
        refused = bounds.refused_search(query)  # before any search work, with a bounded echo
        if refused is not None:
            return refused
        if not query.strip():
            return SearchResult(
                status="error",
                reason=ReasonCode.INVALID_ARGUMENT,
                query=query,
                message="the query is empty",
                next_actions=["pass words describing what you need, or an API name"],
            )
        obj = self.snapshot.get_object(object_key) if object_key else None
        if object_key and obj is None:
            return SearchResult(
                status="error",
                reason=ReasonCode.UNKNOWN_OBJECT,
                query=query,
                message=f"no business object with key '{object_key}'",
                next_actions=[f"call {self.prefix}list_business_objects, or search without object_key"],
            )
        outcome = self._search_index.search(
            query, limit=limit, object_key=obj.key if obj else None, wait_ms=self.config.embedding_wait_ms
        )
        busy = (
            " (ranked by words alone: the embedding model was busy with other new queries)"
            if outcome.words_only
            else ""
        )
        hits = [
            SearchHitInfo(
                api_key=h.api_key,
                object_key=h.object_key,
                title=h.title,
                score=round(h.score, 4),
                exact=h.exact,
                matched=list(h.matched),
                why=h.why,
            )
            for h in outcome.hits
        ]
        if outcome.reason is ReasonCode.NO_CONFIDENT_MATCH:
            closest = [self.snapshot.get_object(k) for k in outcome.closest_objects]
            return SearchResult(
                status="error",
                reason=ReasonCode.NO_CONFIDENT_MATCH,
                query=query,
                message=outcome.doubt
                + (f" in {object_key}" if object_key else "")
                + f" (confidence {outcome.confidence:.2f})"
                + busy
                + "".join(f"; {line}" for line in outcome.not_callable),
                closest_objects=[f"{o.key}: {o.title or o.name}" for o in closest if o is not None],
                next_actions=[
                    f"call {self.prefix}list_apis with object_key {k}" for k in outcome.closest_objects
                ]
                + ["rephrase the request with the business terms of the catalog"]
                + (
                    ["tell the user the documented API for this is not callable here (see message)"]
                    if outcome.not_callable
                    else []
                ),
            )
        if not hits:
            return SearchResult(
                status="error",
                reason=ReasonCode.NO_MATCH,
                query=query,
                message="no API matches this query" + (f" in {object_key}" if object_key else ""),
                next_actions=[
                    "retry with fewer or other words (Russian or English), or an API name",
                    f"browse with {self.prefix}list_business_objects",
                ]
                + (["search again without object_key"] if object_key else []),
            )
        return SearchResult(
            query=query,
            hits=hits,
            reason=ReasonCode.WORDS_ONLY if outcome.words_only else None,
            message=f"{len(hits)} APIs found, best first{busy}",
            next_actions=[f"call {self.prefix}describe_api with the best hit"]
            + (["if none fits, search again in a moment: then meaning is weighed too"] if busy else []),
        )

    def dependency_chain(
        self, name: str, direction: Literal["upstream", "downstream"], depth: int, min_confidence: Confidence
    ) -> DependencyChainResult:
        found = self.resolve_api(name)
        if isinstance(found, DescribeApiResult):
            return DependencyChainResult(
                status="error",
                reason=found.reason,
                api=name,
                direction=direction,
                message=found.message,
                suggestions=found.suggestions,
                next_actions=found.next_actions,
            )
        depth = max(1, min(depth, self.config.max_chain_depth))
        min_rank = EDGE_LEVEL_RANK[EdgeLevel(min_confidence)]
        levels: list[list[str]] = [[found.key]]
        seen = {found.key}
        links: list[Dependency] = []
        omitted = 0
        for _ in range(depth):
            nxt: list[str] = []
            for key in levels[-1]:
                edges, weaker = strongest(
                    self.snapshot.edges_into(key, min_rank=min_rank)
                    if direction == "upstream"
                    else self.snapshot.edges_out_of(key, min_rank=min_rank),
                    direction,
                )
                omitted += weaker
                for edge in edges:
                    if len(links) >= MAX_CHAIN_LINKS:
                        omitted += 1
                        continue
                    links.append(edge_to_dependency(edge))
                    other = edge.producer if direction == "upstream" else edge.consumer
                    if other not in seen:
                        seen.add(other)
                        nxt.append(other)
            if not nxt:
                break
            levels.append(nxt)
        result = DependencyChainResult(
            api=found.key,
            direction=direction,
            depth=len(levels) - 1,
            levels=levels,
            links=links,
            message=f"{len(links)} field mappings over {len(levels) - 1} level(s) {direction} of {found.key}",
            next_actions=[
                f"call {self.prefix}execute_chain with steps ordered from the entry point to {found.key}"
                if direction == "upstream"
                else f"call {self.prefix}describe_api on a consumer to see what it returns"
            ],
        )
        if omitted:
            result.status, result.reason = "partial", ReasonCode.TRUNCATED
            result.message += f"; {omitted} weaker or further mappings left out"
            result.next_actions.insert(0, "raise min_confidence or lower depth to see every mapping")
        elif not links:
            result.reason = ReasonCode.NO_MATCH
            result.message = (
                f"{found.key} needs no input from another API at confidence ≥ {min_confidence}"
                if direction == "upstream"
                else f"no API consumes the outputs of {found.key} at confidence ≥ {min_confidence}"
            )
            result.next_actions = [
                "retry with min_confidence='type_only' for weaker links",
                f"call {self.prefix}execute_api directly",
            ]
        return result

    def _json_type(self, domain_type: str) -> str:
        if domain_type not in self._json_types:
            dt = self.snapshot.get_type(domain_type) if domain_type else None
            kind = dt.json_schema.get("type", "") if dt else ""
            self._json_types[domain_type] = kind if isinstance(kind, str) else "/".join(kind)
        return self._json_types[domain_type]
