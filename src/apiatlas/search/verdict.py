"""A search's abstention decision (``verdict_of``): the calibrated model over the signals of what it
found, the dropped APIs fitting the request better, a request out of the catalog's reach."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from apiatlas.search.confidence import SearchView, abstains, foreign_share, signals_of
from apiatlas.search.dropped_orders import DroppedOrders, dropped_orders
from apiatlas.search.outcome import SearchMode, SearchResultHit
from apiatlas.search.reach import gathered, reach_signals

if TYPE_CHECKING:
    from apiatlas.search.hybrid import HybridSearch

BY_MEANING = 0.5  # a request with this share of its words in a script the catalog does not write is
# judged by the dense abstention model (its meaning), not by its words


def verdict_of(
    search: HybridSearch,
    query: str,
    mode: SearchMode,
    view: SearchView,
    hits: list[SearchResultHit],
    order: list[str],
    object_key: str | None,
) -> Verdict:
    """Whether to abstain: the calibrated model over the signals, the dropped APIs fitting the request
    better, an action only a dropped API does ("закрой заказ": only a dropped close), a request out of
    the catalog's reach (``search.reach``: hybrid searches judged by their own model)."""
    signals = signals_of(view)
    reach = reach_signals(view, query, search.reach) if mode is SearchMode.HYBRID else {}
    first = view.dense_order[:10]
    by_meaning = mode is SearchMode.HYBRID and bool(first) and foreign_share(view) >= BY_MEANING
    gathers = bool(reach) and bool(view.alien)
    names = search.snapshot.api_titles(first) if gathers or by_meaning else {}  # read once for both
    if gathers:  # what the meaning picks out (``reach_rules.meaning_gathers``)
        reach["gathered"] = gathered([names.get(k, ("", ""))[0] for k in first], search.shares)
    signals |= reach
    model = search.settings.model_for(mode.value)
    judged_as = None
    if by_meaning:
        # most of its words are in a script the catalog does not write: judged by its meaning (and
        # out of reach when the catalog has neither its words nor its meaning, ``search.reach``)
        judged_as = SearchMode.DENSE
        signals = signals_of(view.as_dense(names)) | reach
        model = search.settings.model_for(judged_as.value)
    top_exact = bool(hits) and hits[0].exact
    dropped = (
        DroppedOrders()
        if mode is SearchMode.DENSE or top_exact
        else dropped_orders(
            query, view, order, object_key,
            actions=search.actions(), snapshot=search.snapshot, object_stems=search.stems_of_object,
        )
    )  # fmt: skip
    abstain = abstains(
        model,
        signals,
        hits=bool(hits),
        exact=top_exact,
        dropped_cover=dropped.cover,
        undone=bool(dropped.ordered),
    )
    return Verdict(
        abstain=abstain,
        confidence=1.0 if top_exact else round(model.probability(signals), 4) if hits else 0.0,
        signals=signals,
        dropped_cover=dropped.cover,
        ordered=dropped.ordered,
        not_callable=dropped.not_callable,
        judged_as=judged_as,
    )


@dataclass(frozen=True)
class Verdict:
    """A search's abstention decision and what it rests on (``verdict_of``)."""

    abstain: bool
    confidence: float  # the abstention model's probability that the catalog serves the request
    signals: dict[str, float]
    dropped_cover: float  # the best dropped API's coverage of the request
    ordered: str  # the action the request orders ('close ("закрой")') when only a dropped API does it
    not_callable: list[str]  # documented APIs that fit but the funnel dropped ("KEY: stage ...")
    judged_as: SearchMode | None = None  # another mode whose model judged the request (by its meaning)
