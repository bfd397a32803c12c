"""The search tool's answers, one per outcome: refused, abstained, nothing found, found."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apiatlas.errors import ReasonCode
from apiatlas.server.tools.search import SearchHitInfo, SearchResult

if TYPE_CHECKING:
    from apiatlas.search.outcome import SearchOutcome
    from apiatlas.snapshot import CatalogReader


def empty_query(query: str) -> SearchResult:
    return SearchResult(
        status="error",
        reason=ReasonCode.INVALID_ARGUMENT,
        query=query,
        message="the query is empty",
        next_actions=["pass words describing what you need, or an API name"],
    )


def unknown_object(query: str, object_key: str, prefix: str) -> SearchResult:
    return SearchResult(
        status="error",
        reason=ReasonCode.UNKNOWN_OBJECT,
        query=query,
        message=f"no business object with key '{object_key}'",
        next_actions=[f"call {prefix}list_business_objects, or search without object_key"],
    )


def busy_note(outcome: SearchOutcome) -> str:
    """Said when the hits were ranked by words alone because the embedding model was busy."""
    return (
        " (ranked by words alone: the embedding model was busy with other new queries)"
        if outcome.words_only
        else ""
    )


def abstained(
    query: str, object_key: str | None, outcome: SearchOutcome, snapshot: CatalogReader, prefix: str
) -> SearchResult:
    """NO_CONFIDENT_MATCH: why, how confident, the nearest business objects to browse instead."""
    closest = [snapshot.get_object(k) for k in outcome.closest_objects]
    return SearchResult(
        status="error",
        reason=ReasonCode.NO_CONFIDENT_MATCH,
        query=query,
        message=outcome.doubt
        + (f" in {object_key}" if object_key else "")
        + f" (confidence {outcome.confidence:.2f})"
        + busy_note(outcome)
        + "".join(f"; {line}" for line in outcome.not_callable),
        closest_objects=[f"{o.key}: {o.title or o.name}" for o in closest if o is not None],
        next_actions=[f"call {prefix}list_apis with object_key {k}" for k in outcome.closest_objects]
        + ["rephrase the request with the business terms of the catalog"]
        + (
            ["tell the user the documented API for this is not callable here (see message)"]
            if outcome.not_callable
            else []
        ),
    )


def nothing_found(query: str, object_key: str | None, prefix: str) -> SearchResult:
    return SearchResult(
        status="error",
        reason=ReasonCode.NO_MATCH,
        query=query,
        message="no API matches this query" + (f" in {object_key}" if object_key else ""),
        next_actions=[
            "retry with fewer or other words (Russian or English), or an API name",
            f"browse with {prefix}list_business_objects",
        ]
        + (["search again without object_key"] if object_key else []),
    )


def found(query: str, outcome: SearchOutcome, prefix: str) -> SearchResult:
    """The hits, best first; WORDS_ONLY when meaning could not be weighed this time."""
    busy = busy_note(outcome)
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
    return SearchResult(
        query=query,
        hits=hits,
        reason=ReasonCode.WORDS_ONLY if outcome.words_only else None,
        message=f"{len(hits)} APIs found, best first{busy}",
        next_actions=[f"call {prefix}describe_api with the best hit"]
        + (["if none fits, search again in a moment: then meaning is weighed too"] if busy else []),
    )
