"""A step per entity: when a request names two things of one kind, its entry step runs once for each."""

from __future__ import annotations

import re
from dataclasses import replace

from apiatlas.catalog.model import Api
from apiatlas.planning import values as v
from apiatlas.planning.binding import Bound
from apiatlas.planning.draft import Draft, StepInputs, hint_fit
from apiatlas.planning.intent import sub_resource
from apiatlas.planning.model import CandidateChain

_NAMED = {v.ENTITY, v.SURNAME}  # values a search takes; two of them are two things to look up


def more_entities(
    request: str,
    found: list[v.ExtractedValue],
    entry: Api,
    bound: dict[tuple[str | None, str], Bound],
    used: set[int],
    kinds: frozenset[str] = frozenset(),
) -> list[tuple[tuple[str | None, str], int]]:
    """The other stated names the entry step's search input could take, each with that input, when the
    request sets them side by side with the one it takes ("Dune versus Dune Messiah", "Tolkien or
    Lewis"): both are looked up, not only the first."""
    out: list[tuple[tuple[str | None, str], int]] = []
    for slot, value in bound.items():
        if value.origin != "request" or value.index < 0 or found[value.index].kind not in _NAMED:
            continue
        kind = found[value.index].kind
        for index, other in enumerate(found):
            if index in used or index == value.index or other.kind != kind or other.alternatives:
                continue
            if other.value == found[value.index].value:
                continue  # the same name said twice ("to New York … in New York"): one lookup
            if str(other.value) in str(found[value.index].value) and kind == v.SURNAME:
                continue
            if not side_by_side(request, found[value.index].text, other.text):
                continue
            if hint_fit(other.hint, entry, kinds) < 0:
                continue  # said to be another kind of thing ("the band X" for a book search)
            out.append((slot, index))
    return out


_JOINS = re.compile(r"^\s*(,|;|and|or|versus|vs\.?|и|или|против)?\s*(the|a|an)?\s*$", re.IGNORECASE)


def side_by_side(request: str, one: str, other: str) -> bool:
    """Whether two stated values are joined by only a comma or a conjunction ("X or Y", "X versus Y")."""
    a, b = request.find(one), request.find(other)
    if a < 0 or b < 0:
        return False
    first, second = (one, b) if a < b else (other, a)
    between = request[min(a, b) + len(first) : second]
    return bool(_JOINS.match(between))


def with_entities(
    found: list[v.ExtractedValue],
    apis: list[Api],
    steps: list[StepInputs],
    extra: list[tuple[tuple[str | None, str], int]],
) -> tuple[list[Api], list[StepInputs]]:
    """The chain with one more entry step per extra name, first (the steps after read the last one)."""
    shift = len(extra)
    later = [[i.shifted(shift) for i in inputs] for inputs in steps]
    added = []
    for (table, name), index in extra:
        added.append(
            [
                replace(i, value=found[index].value)
                if (i.table, i.name) == (table, name) and i.origin == "request"
                else i
                for i in steps[0]
            ]
        )
    return [apis[0]] * shift + apis, added + later


NEAR_TIE = 0.01  # two chains' scores closer than this: the request does not tell them apart


def tie_note(chains: list[CandidateChain]) -> str:
    """When the two best chains score (nearly) the same, say so: the request does not tell.

    The same stated name read through different entry points ("Dune" through a book search or an
    author search), or two different targets for the same words (one word for two kinds of
    records). On RestBench and the sample bank the second kind fires on 4 of 160 requests; in 2 of
    them the best chain is not the gold one."""
    if len(chains) < 2 or chains[0].score - chains[1].score > NEAR_TIE:
        return ""
    first, second = chains[0], chains[1]
    if abs(first.score - second.score) <= 1e-6 and first.entry_point != second.entry_point:
        read = {str(i.value) for i in first.steps[0].inputs if i.origin == "request"}
        same = sorted(read & {str(i.value) for i in second.steps[0].inputs if i.origin == "request"})
        if same:
            through = second.entry_point
            return f"the request does not say what {same[0]!r} is: chain 2 reads it through {through}"
    if first.target != second.target and second.target not in first.api_keys:
        return f"chain 2, ending at {second.target}, scores almost the same: the request may mean either"
    return ""


def joined(
    request: str, found: list[v.ExtractedValue], ranked: list[Draft], value_gain: float, step_cost: float
) -> Draft | None:
    """The best chain and the best one asking the same about a name it leaves unused, one after the other
    ("the author of the book Dune or the singer of the band Queen": Dune's people, then Queen's).

    The other chain takes the unused name and none of the best chain's values, has as many steps and ends
    at an API of the same part (``/book/{id}/people`` and ``/band/{id}/people``). The two run in the
    order the request names them; the score is the best chain's, plus ``value_gain`` per name the other
    takes, less ``step_cost`` per step it adds."""
    if not ranked:
        return None
    best = ranked[0]
    asked = sub_resource(best.apis[-1])
    if not asked:
        return None
    for index in sorted(best.unused):
        if found[index].kind not in _NAMED:
            continue
        for other in ranked[1:]:
            if index not in other.used or other.used & best.used or len(other.apis) != len(best.apis):
                continue
            if sub_resource(other.apis[-1]) != asked:
                continue
            score = best.score + value_gain * len(other.used) - step_cost * len(other.apis)
            if _named_first(request, found, other.used) < _named_first(request, found, best.used):
                return _one_after_the_other(other, best, score)
            return _one_after_the_other(best, other, score)
    return None


def _named_first(request: str, found: list[v.ExtractedValue], indexes: frozenset[int]) -> int:
    """Where the request first names one of these values (its length when it names none)."""
    places = [request.find(found[i].text) for i in indexes]
    return min((p for p in places if p >= 0), default=len(request))


def _one_after_the_other(first: Draft, second: Draft, score: float) -> Draft:
    shift = len(first.apis)
    later = [[i.shifted(shift) for i in inputs] for inputs in second.inputs]
    return Draft(
        apis=[*first.apis, *second.apis],
        inputs=[*first.inputs, *later],
        score=round(score, 4),
        confidence=round(first.confidence * second.confidence, 4),
        missing=[*first.missing, *second.missing],
        why=[*first.why, f"then the same from {second.apis[0].key} for a second name"],
        used=first.used | second.used,
        unused=first.unused & second.unused,
        covered=max(first.covered, second.covered),  # the two cover at least what either covers
        uncovered=min(first.uncovered, second.uncovered),
    )
