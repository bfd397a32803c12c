"""The dependency_chain tool's walk: level by level along the strongest edges, then its answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from apiatlas.errors import ReasonCode
from apiatlas.server.edges_view import edge_to_dependency, strongest
from apiatlas.server.results import Dependency
from apiatlas.server.tools.dependency_chain import DependencyChainResult

if TYPE_CHECKING:
    from apiatlas.snapshot import CatalogReader

Direction = Literal["upstream", "downstream"]
MAX_CHAIN_LINKS = 40  # field mappings in one dependency_chain answer


@dataclass
class ChainWalk:
    """What a walk found: the APIs of each level (levels[0] = the start), the mappings, what it left out."""

    levels: list[list[str]]
    links: list[Dependency] = field(default_factory=list)
    omitted: int = 0  # weaker mappings left out, and mappings past MAX_CHAIN_LINKS


def walk(snapshot: CatalogReader, start: str, direction: Direction, depth: int, min_rank: int) -> ChainWalk:
    """Follow the strongest edges into (upstream) or out of (downstream) ``start`` for ``depth`` levels."""
    found = ChainWalk(levels=[[start]])
    seen = {start}
    for _ in range(depth):
        nxt: list[str] = []
        for key in found.levels[-1]:
            edges, weaker = strongest(
                snapshot.edges_into(key, min_rank=min_rank)
                if direction == "upstream"
                else snapshot.edges_out_of(key, min_rank=min_rank),
                direction,
            )
            found.omitted += weaker
            for edge in edges:
                if len(found.links) >= MAX_CHAIN_LINKS:
                    found.omitted += 1
                    continue
                found.links.append(edge_to_dependency(edge))
                other = edge.producer if direction == "upstream" else edge.consumer
                if other not in seen:
                    seen.add(other)
                    nxt.append(other)
        if not nxt:
            break
        found.levels.append(nxt)
    return found


def chain_answer(
    api: str, direction: Direction, found: ChainWalk, min_confidence: str, prefix: str
) -> DependencyChainResult:
    """The walk as a result: TRUNCATED (partial) when it left mappings out, NO_MATCH when it found none."""
    depth = len(found.levels) - 1
    result = DependencyChainResult(
        api=api,
        direction=direction,
        depth=depth,
        levels=found.levels,
        links=found.links,
        message=f"{len(found.links)} field mappings over {depth} level(s) {direction} of {api}",
        next_actions=[
            f"call {prefix}execute_chain with steps ordered from the entry point to {api}"
            if direction == "upstream"
            else f"call {prefix}describe_api on a consumer to see what it returns"
        ],
    )
    if found.omitted:
        result.status, result.reason = "partial", ReasonCode.TRUNCATED
        result.message += f"; {found.omitted} weaker or further mappings left out"
        result.next_actions.insert(0, "raise min_confidence or lower depth to see every mapping")
    elif not found.links:
        result.reason = ReasonCode.NO_MATCH
        result.message = (
            f"{api} needs no input from another API at confidence ≥ {min_confidence}"
            if direction == "upstream"
            else f"no API consumes the outputs of {api} at confidence ≥ {min_confidence}"
        )
        result.next_actions = [
            "retry with min_confidence='type_only' for weaker links",
            f"call {prefix}execute_api directly",
        ]
    return result
