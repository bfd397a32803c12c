"""The two ends of a route: "flights from Boston to Paris" states two places, and an API taking an
origin and a destination (``originSkyId``, ``destinationSkyId``, each an id a lookup gives) needs one
lookup per end — the same lookup API called twice, once with each place, each feeding the inputs named
for its end. The roles are read from the words (``language.words.ROUTE_START`` / ``ROUTE_END`` in an
input's name, the preposition before a place in the request), never from one catalog's names."""

from __future__ import annotations

from dataclasses import replace

from apiatlas.language.routes import END, START, input_role, said_role
from apiatlas.planning import values as v
from apiatlas.planning.draft import StepInput, StepInputs


def places(request: str, found: list[v.ExtractedValue]) -> dict[int, tuple[str, str]]:
    """The names the request states (their indexes), each with the end of a route it is said as."""
    return {i: (str(f.value), said_role(request, f.text)) for i, f in enumerate(found) if f.kind == v.ENTITY}


def one_lookup_per_end(
    steps: list[StepInputs], places: dict[int, tuple[str, str]], used: set[int]
) -> tuple[list[int], list[StepInputs]] | None:
    """The steps with one more lookup where a step's inputs for both ends of a route come from one
    lookup step that took one place the request names (``places``: a stated value's index -> its text
    and role) and the request names the other end's place (unused): the lookup is called again with it,
    origin first, and the inputs named for that end read the new call. Returns the original step each
    new step is (the lookup twice) and the new steps, or None when no step needs it (always with fewer
    than two places)."""
    if len(places) < 2:
        return None
    for index, inputs in enumerate(steps):
        fed = [i for i in inputs if i.origin == "step" and input_role(i.name)]
        producers = {i.from_step for i in fed}
        if len(producers) != 1 or {input_role(i.name) for i in fed} != {START, END}:
            continue
        lookup = producers.pop()
        if lookup is None:
            continue
        taken = [i for i in steps[lookup] if i.origin == "request" and _index_of(i, places) is not None]
        if len(taken) != 1:
            continue
        role = places[_index_of(taken[0], places) or 0][1] or START
        other_role = END if role == START else START
        other = next((k for k, (_, r) in places.items() if r == other_role and k not in used), None)
        if other is None:
            continue
        used.add(other)
        copy = [replace(i, value=places[other][0]) if i is taken[0] else i for i in steps[lookup]]
        return _inserted(steps, lookup, copy, other_role, index)
    return None


def _index_of(source: StepInput, places: dict[int, tuple[str, str]]) -> int | None:
    return next((k for k, (text, _) in places.items() if text == source.value), None)


def _inserted(
    steps: list[StepInputs], lookup: int, copy: StepInputs, role: str, consumer: int
) -> tuple[list[int], list[StepInputs]]:
    """``copy`` put before (START) or after (END) step ``lookup``; the inputs of ``consumer`` named for
    ``role`` read it, every later reference shifted."""
    at = lookup if role == START else lookup + 1
    order = [*range(at), -1, *range(at, len(steps))]
    new_at = {old: new for new, old in enumerate(order) if old >= 0}
    out: list[StepInputs] = []
    for old in order:
        if old < 0:
            out.append(copy)
            continue
        moved = []
        for source in steps[old]:
            if source.origin == "step" and source.from_step is not None:
                target = new_at[source.from_step]
                if old == consumer and source.from_step == lookup and input_role(source.name) == role:
                    target = at
                source = replace(source, from_step=target)
            moved.append(source)
        out.append(moved)
    return [lookup if old < 0 else old for old in order], out
