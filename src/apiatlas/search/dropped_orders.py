"""What a request orders that only a documented-but-dropped API would do: the dropped APIs that fit it
better than the kept ones, an action no kept API among the best does ("закрой заказ": only a dropped
close), a look-up by a key only a dropped API takes ("по БИК …") — read for ``HybridSearch``'s abstention
verdict, with the dropped APIs to name as not callable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from apiatlas.search.api_actions import ApiActions
from apiatlas.search.confidence import DROPPED_COVERAGE, SearchView
from apiatlas.snapshot.catalog_reader import CatalogReader

NAMED_AT_MOST = 2  # dropped APIs named in an answer


@dataclass(frozen=True)
class DroppedOrders:
    """What the dropped APIs say about one request."""

    cover: float = 0.0  # the best dropped API's coverage of the request
    ordered: str = ""  # the action the request orders ('close ("закрой")') when only a dropped API does it
    not_callable: list[str] = field(default_factory=list)  # "KEY: documented, but dropped … at stage 'S'"


def dropped_orders(
    query: str,
    view: SearchView,
    order: list[str],
    object_key: str | None,
    *,
    actions: ApiActions,
    snapshot: CatalogReader,
    object_stems: Callable[[str], list[str]],
) -> DroppedOrders:
    """The dropped APIs fitting ``query`` (``view``: its search's readings; ``order``: the kept ranking),
    the action or look-up only one of them does on the business object the request names, and the
    dropped APIs to name (those orders first, then the ones covering the request)."""
    dropped = actions.dropped_fits(view.terms, object_key, view.asked)
    cover = max((c for _, _, c, _ in dropped), default=0.0)
    done = {actions.key_actions().get(k, "") for k in order[:5]}
    lookups = actions.dropped_lookups(query, view.terms, order[:5])  # "по БИК …"
    orders = [(k, st, f'{a} ("{view.asked[a]}")') for k, st, _, a in dropped if a in view.asked.keys() - done]
    undone = [
        (key, stage, said)
        for key, stage, said in [*orders, *((k, st, f'a look-up by "{w}"') for k, st, w in lookups)]
        if set(object_stems(snapshot.api_object(key) or "")) & set(view.terms)
    ]
    covering = [(key, stage) for key, stage, c, _ in dropped if c >= DROPPED_COVERAGE]
    named = [
        f"{key}: documented, but dropped by the funnel at stage '{stage}'"
        for key, stage in dict.fromkeys([*((k, st) for k, st, _ in undone), *covering])
    ][:NAMED_AT_MOST]
    return DroppedOrders(cover=cover, ordered=undone[0][2] if undone else "", not_callable=named)
