"""A code search in words ranks a type's members before the type's own card when they score near it
(``search.structural.members_first``): the request asks what a member does."""

from __future__ import annotations

from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
from apiatlas.search.structural import TYPE_SHARE, members_first, with_structural


def _hit(key: str, score: float) -> SearchResultHit:
    return SearchResultHit(api_key=key, object_key="Shapes.Canvas", title=key, score=score, why="related")


def _outcome(mode: SearchMode, hits: list[SearchResultHit]) -> SearchOutcome:
    return SearchOutcome(query="read the width of a canvas", mode=mode, hits=hits, ranked=hits)


TYPE = _hit("T:Shapes.Canvas", 1.0)
WIDTH = _hit("P:Shapes.Canvas.Width", 0.9)  # above the type's share of its score
CLEAR = _hit("M:Shapes.Canvas.Clear", TYPE_SHARE * 0.9)  # below it


def test_a_member_scoring_near_its_type_ranks_first_in_a_hybrid_search() -> None:
    ranked = members_first(_outcome(SearchMode.HYBRID, [TYPE, WIDTH, CLEAR]))
    assert [h.api_key for h in ranked.hits] == [WIDTH.api_key, TYPE.api_key, CLEAR.api_key]
    assert [h.api_key for h in ranked.ranked] == [h.api_key for h in ranked.hits]
    assert ranked.hits[1].score == 1.0  # the score shown is the fused one


def test_lexical_and_dense_rankings_are_left_as_they_are() -> None:
    for mode in (SearchMode.LEXICAL, SearchMode.DENSE):
        outcome = _outcome(mode, [TYPE, WIDTH, CLEAR])
        assert members_first(outcome).hits == outcome.hits


def test_a_named_type_stays_first() -> None:
    """``Canvas`` names the type: the structural lookup puts it first whatever its score."""
    outcome = _outcome(SearchMode.HYBRID, [WIDTH, CLEAR])
    named = with_structural(outcome, [TYPE.api_key], {TYPE.api_key: ("Shapes.Canvas", "Canvas")}, 5)
    assert [h.api_key for h in named.hits] == [TYPE.api_key, WIDTH.api_key, CLEAR.api_key]
