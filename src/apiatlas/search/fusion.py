"""A search's fused scores (``HybridSearch``): each candidate's bm25 over the best one's and its cosine
spread over the dense candidates', weighed by the fusion settings, APIs doing another action than the
request orders demoted."""

from __future__ import annotations

from apiatlas.search.api_actions import ApiActions
from apiatlas.search.confidence import SearchView, best_lexical_cover, foreign_share
from apiatlas.search.lexical import LexicalIndex
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings


def fused_scores(
    mode: SearchMode,
    view: SearchView,
    settings: FusionSettings,
    index: LexicalIndex | None,
    actions: ApiActions,
    mismatch: float,
    said: list[str] | None = None,
    named_writes: bool = True,
) -> tuple[dict[str, float], list[str]]:
    """Each candidate's fused score (bm25 over the best one's, cosine spread over the dense candidates',
    weighed by ``settings``), an API doing another action than ordered keeping ``mismatch`` of its score;
    and the exact-name hits. ``said``: the request's words as the demotions read them (``view.said``
    by default; an abbreviation spelled out). ``named_writes``: a request that orders no change demotes the
    operations whose names open with a change verb too (``ApiActions.demote_unasked``), and one resource's
    operations are ordered by what the request orders (``search.families``): the planner, which reads a
    request's orders itself, asks for neither (with the order, its Slack and Stripe chains lost a case
    each)."""
    s = settings
    lexical, cosines, dense_order = view.lexical, view.cosines, view.dense_order
    exact = [k for k, v in lexical.items() if v[2]]
    top_lex = max((v[0] for v in lexical.values() if not v[2]), default=0.0) or 1.0
    hi = max((cosines[k] for k in dense_order), default=1.0)
    lo = min((cosines[k] for k in dense_order), default=0.0)
    span = (hi - lo) or 1.0
    # the words of a script the catalog does not write match nothing: the rest say less of the request
    lexical_weight = s.lexical_weight * (1.0 - foreign_share(view, unread=True)) ** 2
    if s.lexical_by_cover and index is not None:
        lexical_weight *= best_lexical_cover(view, index.idf)
    fused: dict[str, float] = {}
    for key in dict.fromkeys([*lexical, *dense_order]):
        lex = 0.0 if key not in lexical or lexical[key][2] else lexical[key][0] / top_lex
        dense = max(0.0, (cosines[key] - lo) / span) if key in cosines else 0.0
        if mode is SearchMode.LEXICAL:
            fused[key] = lex
        elif mode is SearchMode.DENSE:
            fused[key] = cosines.get(key, -1.0)
        else:
            fused[key] = lexical_weight * lex + s.dense_weight * dense
    if mode is not SearchMode.DENSE:
        said = view.said if said is None else said
        on_named = actions.demote_unasked(fused, said, view.asked, mismatch, named_writes=named_writes)
        # one operation under several paths; «всех неймспейсов» read as the catalog writes it
        read = view.read if view.read != view.said else None  # ("hpa" spelled out in ``said`` only)
        actions.twins().lift(fused, said, mismatch, on_named, read=read)
        # one resource's operations in the order of what the request orders, or says it reads
        if named_writes and (view.asked or actions.orders_read(said)):
            kinds = actions.wanted_kinds(said, view.asked)
            actions.families().order(fused, actions.kinds_of(fused), kinds)
    return fused, exact
