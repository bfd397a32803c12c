"""How well one API fits a request beyond its words: the kind of thing asked about, the values it takes,
the part of a thing its path names, and whether a last step adds anything (``Planner`` scores with them)."""

from __future__ import annotations

from apiatlas.catalog.actions import ends_in_parameter
from apiatlas.catalog.model import Api
from apiatlas.language.stemming import same_stem
from apiatlas.language.words import PERSON
from apiatlas.planning.context import PlanContext
from apiatlas.planning.intent import holds, sub_resource, takes_one_of
from apiatlas.planning.weights import Weights


def states(ctx: PlanContext, key: str) -> float:
    """How well this API takes the request's values (producers that do are tried first): one per value,
    less when the value is said to be another kind of thing ("the collection Harry Potter")."""
    if key not in ctx.stating:
        api = ctx.api(key)
        ctx.stating[key] = (
            0.0
            if api is None
            else sum(
                1.0 + ctx.cache.hint_fit(ctx.found[b.index].hint, api, ctx.found[b.index].qualifier)
                for b in ctx.bindings(api).values()
                if b.index >= 0
            )
        )
    return ctx.stating[key]


def entry_fit(ctx: PlanContext, api: Api) -> float:
    """How well the first step matches the request's last words (what the data belongs to)."""
    return ctx.relevance.weighted(api, late=True) + 0.5 * ctx.relevance.precision(api)


def relists(ctx: PlanContext, apis: list[Api]) -> bool:
    """Whether a chain opens with a read of one item (``GET …/boxes/{name}``) and ends at a list of
    items of that same kind (``GET …/boxes``, filtered by what the item says): the item is no thing the
    answer belongs to, so its first step earns no ``entry`` fit."""
    first, last = apis[0], apis[-1]
    if not (first.key.startswith("GET ") and last.key.startswith("GET ")):
        return False
    if not ends_in_parameter(first.key) or ends_in_parameter(last.key):
        return False
    kind = ctx.cache.own_kind(first)
    return bool(kind) and kind == ctx.cache.own_kind(last)


def wider_than_said(ctx: PlanContext, api: Api) -> float:
    """1 when a twin of ``api`` under one parent more (``SnapshotCache.scoped_twins``: ``GET
    /shelves/{shelf}/books`` beside ``GET /books``) takes, as that parent's key, a value the request states
    and ``api`` takes not: the request says whose things it means, and ``api`` reads every parent's."""
    taken = {b.index for b in ctx.bindings(api).values() if b.index >= 0}
    for twin, parent in ctx.cache.scoped_twins(api.key):
        other = ctx.api(twin)
        bound = ctx.bindings(other) if other is not None else {}
        if any(name == parent and b.index >= 0 and b.index not in taken for (_, name), b in bound.items()):
            return 1.0
    return 0.0


def kind_fit(ctx: PlanContext, key: str, weights: Weights) -> float:
    """1 when the API is about the kind of thing the request asks something about; ``Weights.people``
    when the request asks who and the API lists people (its ``members[].id`` feeds a person's);
    less ``Weights.one_counted`` when it takes one of the things the request counts
    (``chapter_number`` for "how many chapters")."""
    api = ctx.api(key)
    if api is None:
        return 0.0
    one, vocabulary = weights.one_counted if takes_one_of(api, ctx.counted) else 0.0, ctx.cache.vocabulary
    if ctx.kind:
        if ctx.cache.own_kind(api) == ctx.kind and _one_of_many(ctx, api):
            return -one  # one item where many are asked ("List the boxes": their page list answers)
        if ctx.cache.own_kind(api) == ctx.kind or (key in ctx.members and holds(api, ctx.kind, vocabulary)):
            return 1.0 - one  # a thing of that kind, or the things in it ("add X to the team core")
        # asked in the plural, a list of them answers ("Which channels is X in?": a user's ``channels[]``)
        listed = ctx.plural and ctx.kind in ctx.cache.kinds_listed_by(api)
        return (weights.listed if listed else 0.0) - one
    return (weights.people if ctx.who and PERSON in ctx.cache.listed_kinds(key) else 0.0) - one


def unasked(ctx: PlanContext, api: Api) -> float:
    """1 when the target's path ends in a part the request does not name (``/similar`` for "the genre
    of X"): it answers something else about the thing."""
    tail = sub_resource(api)
    words = ctx.relevance.words
    return 1.0 if tail and not any(same_stem(t, u) for w in words for t in w.stems for u in tail) else 0.0


def nearer_in_meaning(ctx: PlanContext, apis: list[Api]) -> bool:
    """Whether a chain's last step is nearer in meaning to the request than every step before it (what
    the words do not say, "artists similar to X" of a related-artists list, the meaning may)."""
    if len(apis) < 2:
        return False
    last = ctx.relevance.nearness(apis[-1].key)
    return last > 0 and all(last > ctx.relevance.nearness(a.key) for a in apis[:-1])


def adds_nothing(ctx: PlanContext, apis: list[Api]) -> float:
    """1 when a chain's last step covers no request word better than the steps before it: it reads the
    details of what the chain already answers (a list's rows one by one), which the request did not ask."""
    if len(apis) < 2:
        return 0.0
    before: dict[int, float] = {}
    for api in apis[:-1]:
        for index, strength in ctx.relevance.strength(api).items():
            before[index] = max(strength, before.get(index, 0.0))
    last = ctx.relevance.strength(apis[-1])
    return 0.0 if any(strength > before.get(i, 0.0) for i, strength in last.items()) else 1.0


def _one_of_many(ctx: PlanContext, api: Api) -> bool:
    """Whether ``api`` reads one item (``GET …/boxes/{box}``) of the kind the request asks for in the plural,
    no value of that kind stated, where the catalog pages that kind (``page_lists.page_kind``)."""
    if not (ctx.plural and api.key.startswith("GET ") and ends_in_parameter(api.key)):
        return False
    if any(f.hint == ctx.kind for f in ctx.found):
        return False  # "the boxes b-1 and b-2": each one read
    return bool(ctx.cache.page_lists().get(ctx.kind))  # ``ctx.plural``: said in the plural
