"""Read-only navigation of a snapshot: objects, APIs, contracts, search, dependency chains as results."""

from __future__ import annotations

import difflib
from functools import cached_property
from typing import TYPE_CHECKING

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, EdgeLevel, SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.server import bounds, search_answers
from apiatlas.server.config import ServerConfig
from apiatlas.server.contract_bounds import bounded_answer, split_pointer
from apiatlas.server.cursors import decode_cursor, page_info
from apiatlas.server.dependency_walk import Direction, chain_answer, walk
from apiatlas.server.edges_view import edge_to_dependency, strongest
from apiatlas.server.results import ApiSummary, Dependency, Paging, ToolResult
from apiatlas.server.tools.dependency_chain import Confidence, DependencyChainResult
from apiatlas.server.tools.describe_api import (
    ApiContract,
    ColumnInfo,
    DescribeApiResult,
    ErrorInfo,
    TableInfo,
)
from apiatlas.server.tools.list_apis import ListApisResult
from apiatlas.server.tools.list_business_objects import ListObjectsResult, ObjectSummary
from apiatlas.server.tools.search import SearchResult
from apiatlas.snapshot import CatalogReader

if TYPE_CHECKING:
    from apiatlas.search.hybrid import HybridSearch
    from apiatlas.server.code_navigation import CodeNavigator
    from apiatlas.server.tools.check_code import CheckCodeResult
    from apiatlas.server.tools.read_source import ReadSourceResult


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

    def __init__(self, snapshot: CatalogReader, config: ServerConfig, prefix: str) -> None:
        self.snapshot = snapshot
        self.config = config
        self.prefix = prefix
        self._json_types: dict[str, str] = {}

    @cached_property
    def search_engine(self) -> HybridSearch:
        """Hybrid search when the snapshot's vectors can be matched (its bundled model, or the endpoint
        the config's ``embedding`` names), else lexical with abstention."""
        from apiatlas.search.hybrid import HybridSearch
        from apiatlas.search.providers import query_provider

        return HybridSearch(self.snapshot, query_provider(self.snapshot, self.config.embedding))

    @cached_property
    def code(self) -> CodeNavigator | None:
        """The code part of navigation when the snapshot is an SDK's code surface, else None."""
        from apiatlas.snapshot.manifest import serving_of

        if serving_of(self.snapshot.manifest()).surface != "code":
            return None
        from apiatlas.server.code_navigation import CodeNavigator

        return CodeNavigator(self.snapshot, self.prefix)

    # ---- names -------------------------------------------------------------------------------

    @cached_property
    def _object_keys(self) -> list[str]:
        objects, _ = self.snapshot.list_objects(0, 1_000_000)
        return [o.key for o in objects]

    @cached_property
    def _api_keys(self) -> list[str]:
        return self.snapshot.all_api_keys(include_dropped=True)

    def suggest_apis(self, name: str, limit: int = 5) -> list[str]:
        """Close API names (difflib on keys, then the search's hits by words) for an unknown name."""
        from apiatlas.search.outcome import SearchMode

        close = difflib.get_close_matches(name, self._api_keys, n=limit, cutoff=0.6)
        if len(close) < limit and name.strip():
            for hit in self.search_engine.search(name, limit=limit, mode=SearchMode.LEXICAL).ranked:
                if hit.api_key not in close:
                    close.append(hit.api_key)
        return close[:limit]

    def writes_enabled(self, api_key: str) -> bool:
        """Whether the snapshot view (a role's, apiatlas.security) enables this write API; never otherwise."""
        return self.snapshot.writes_enabled(api_key)

    def resolve_api(self, name: str) -> Api | DescribeApiResult:
        """The API named ``name``, or an UNKNOWN_API result with close names."""
        api = self.snapshot.get_api(name) if name.strip() else None
        if api is None and self.code is not None and name.strip():  # an alias or a dotted name
            key = self.code.resolve_key(name)
            api = self.snapshot.get_api(key) if key else None
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
        self._page_end(result, paging, total, "the snapshot holds no business object with a callable API")
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
        self._page_end(result, paging, total, f"{obj.key} has no callable API")
        return result

    def _page_end(self, result: ToolResult, paging: Paging, total: int, empty: str) -> None:
        """A listed page's reason and next actions: how to read on when truncated; an error when empty."""
        if paging.truncated:
            result.reason = ReasonCode.TRUNCATED
            result.next_actions.append(paging.how_to_continue or "")
        if total == 0:
            result.status, result.reason = "error", ReasonCode.NO_MATCH
            result.message = empty
            result.next_actions = [f"call {self.prefix}search with what you need"]

    def describe_api(self, name: str) -> DescribeApiResult:
        """The contract of ``name`` (``KEY#/pointer``: that part of it), bounded by the config's budget."""
        key, pointer = split_pointer(name)
        budget = self.config.describe_budget_bytes
        return bounded_answer(self.full_contract(key if pointer else name), pointer, budget, self.prefix)

    def full_contract(self, name: str) -> DescribeApiResult:
        """describe_api's answer without the budget's cut."""
        return self._describe(name)

    def _describe(self, name: str) -> DescribeApiResult:
        """The whole contract, uncut (the ``apiatlas://api/{key}`` resource reads it)."""
        found = self.resolve_api(name)
        if isinstance(found, DescribeApiResult):
            return found
        api = found
        why_not = not_executable_reason(api, self.writes_enabled(api.key))
        edges, omitted = strongest(self.snapshot.edges_into(api.key, min_rank=4), "upstream")
        contract = self._contract(api, why_not, [edge_to_dependency(e) for e in edges])
        return DescribeApiResult(
            api=contract,
            message=f"{api.key}: {api.title}"
            + (
                f" ({omitted} weaker candidate producers not shown; {self.prefix}dependency_chain lists them)"
                if omitted
                else ""
            ),
            reason=ReasonCode.NOT_EXECUTABLE if why_not else None,
            next_actions=[self._next_after_describe(api, contract, why_not)],
        )

    def _contract(self, api: Api, why_not: str | None, depends_on: list[Dependency]) -> ApiContract:
        """What describe_api shows: the compiled input schema, typed output tables, errors, overlay."""
        overlay = api.overlay
        return ApiContract(
            key=api.key,
            object_key=api.object_key,
            title=api.title,
            description=api.description,
            side_effect=api.side_effect.value,
            executable=why_not is None,
            not_executable_reason=why_not,
            input_schema=self.snapshot.api_input_schema(api.key) or {},
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
            depends_on=depends_on,
            code=self.code.card(api) if self.code is not None else None,
        )

    # ---- code surfaces ------------------------------------------------------------------------

    def read_source(self, name: str, offset: int, limit: int | None) -> ReadSourceResult:
        from apiatlas.server.tools.read_source import ReadSourceResult

        if self.code is None:
            return ReadSourceResult(status="error", reason=ReasonCode.NOT_EXECUTABLE,
                                    message="this snapshot is not an SDK's code surface")  # fmt: skip
        found = self.resolve_api(name)
        if isinstance(found, DescribeApiResult):
            return ReadSourceResult(
                status="error", reason=found.reason, message=found.message,
                suggestions=found.suggestions, next_actions=found.next_actions,
            )  # fmt: skip
        return self.code.read_source(found, offset, limit)

    def check_code(self, code: str, compile_step: bool) -> CheckCodeResult:
        from apiatlas.server.code_checking import check_draft
        from apiatlas.server.tools.check_code import CheckCodeResult

        if self.code is None:
            return CheckCodeResult(status="error", reason=ReasonCode.NOT_EXECUTABLE,
                                   message="this snapshot is not an SDK's code surface")  # fmt: skip
        return check_draft(self.code, code, compile_step=compile_step)

    def _next_after_describe(self, api: Api, contract: ApiContract, why_not: str | None) -> str:
        if why_not is not None:
            return f"this API is not executable ({why_not}); look for a sibling with {self.prefix}list_apis"
        if contract.depends_on and not api.entry_point:
            return (
                f"inputs come from other APIs: call {self.prefix}dependency_chain to plan, "
                f"then {self.prefix}execute_chain"
            )
        return f"call {self.prefix}execute_api with arguments matching input_schema"

    def search(self, query: str, object_key: str | None, limit: int | None) -> SearchResult:
        """Exact API names first (the snapshot's search puts them there), then full-text rank."""
        limit = max(1, min(limit or self.config.search_limit, 100))
        refused = bounds.refused_search(query)  # before any search work, with a bounded echo
        if refused is not None:
            return refused
        if not query.strip():
            return search_answers.empty_query(query)
        obj = self.snapshot.get_object(object_key) if object_key else None
        if object_key and obj is None:
            return search_answers.unknown_object(query, object_key, self.prefix)
        from apiatlas.search.outcome import SearchMode
        from apiatlas.search.structural import OVERLOAD_DEPTH

        # a code surface's exact name: the named entities, then words only (no query embedding to wait for)
        named = self.code is not None and self.code.structural.names_exactly(query)
        depth = min(100, limit * OVERLOAD_DEPTH) if self.code is not None else limit  # overloads fold
        outcome = self.search_engine.search(
            query, limit=depth, object_key=obj.key if obj else None, wait_ms=self.config.embedding_wait_ms,
            mode=SearchMode.LEXICAL if named else None,
        )  # fmt: skip
        if self.code is not None:  # names of types and members first, exactly
            outcome = self.code.search(query, outcome, limit, obj.key if obj else None)
        if outcome.reason is ReasonCode.NO_CONFIDENT_MATCH:
            return search_answers.abstained(query, object_key, outcome, self.snapshot, self.prefix)
        if not outcome.hits:
            return search_answers.nothing_found(query, object_key, self.prefix)
        return search_answers.found(query, outcome, self.prefix)

    def dependency_chain(
        self, name: str, direction: Direction, depth: int, min_confidence: Confidence
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
        if self.code is not None:  # a code surface's one level: members called together in its bodies
            min_rank = max(min_rank, EDGE_LEVEL_RANK[EdgeLevel.CO_USAGE])
        found_walk = walk(self.snapshot, found.key, direction, depth, min_rank)
        return chain_answer(found.key, direction, found_walk, min_confidence, self.prefix)

    def _json_type(self, domain_type: str) -> str:
        if domain_type not in self._json_types:
            dt = self.snapshot.get_type(domain_type) if domain_type else None
            kind = dt.json_schema.get("type", "") if dt else ""
            self._json_types[domain_type] = kind if isinstance(kind, str) else "/".join(kind)
        return self._json_types[domain_type]
