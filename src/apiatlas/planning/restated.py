"""A call a later action of the request says again: done once.

"Find flights from A to B. I need a flight that departs on May 1 and returns May 9": the second sentence
asks for the flight the first one asked for, with more said about it. "I need hotel options …" after a
trip the hotels were already found for asks for those hotels. When a later action's last step reads the
same API as an earlier step, states nothing that differs from what that call was given, and reads nothing
found after it, it is that call again: the earlier call takes what the later one adds (the return date),
and the later one is dropped. A write between the two, or either being a write, keeps both (what a read
returns may have changed; a write said twice is done twice); so does a name the later action states that
no call up to the earlier one was given ("Get user Alice. Then get user Bob", neither name bound: two
users, each asked of the user)."""

from __future__ import annotations

from collections.abc import Callable

from apiatlas.language.routes import END, START, input_role
from apiatlas.planning.model import InputSource, PlannedStep

IsRead = Callable[[str], bool]
# the kinds of ``values`` naming one thing (entity, name, identifier, e-mail, document number)
STATED_KINDS = frozenset(("entity", "name", "identifier", "email", "doc_number"))


def said_once(
    steps: list[PlannedStep], ends: list[int], is_read: IsRead, names: list[set[str]] | None = None
) -> list[PlannedStep]:
    """``steps`` with each action's last step (``ends``, indexes into ``steps``) that restates an earlier
    read merged into it (``_merged``) and dropped, later steps' inputs renumbered. ``names``: the names
    each action states (lower case, one set per end), each of which the steps up to the earlier call
    must have been given for the later one to be that call."""
    said: dict[int, set[str]] = {}
    for n, end in enumerate(ends):
        said.setdefault(end, set()).update(names[n] if names and n < len(names) else ())
    out = list(steps)
    for end in sorted(said, reverse=True):  # from the last: an index dropped moves no end before it
        if end >= len(out) or not is_read(out[end].api):
            continue
        for earlier in range(end - 1, -1, -1):
            if not is_read(out[earlier].api):
                break  # a write between: what a read returns may have changed
            same = out[earlier].api == out[end].api and _given(said[end], out[: earlier + 1])
            merged = _merged(out[earlier], out[end], earlier) if same else None
            if merged is not None:
                out[earlier] = merged
                out = _dropped(out, end, earlier)
                break
    return out


def with_added(first: PlannedStep, again: PlannedStep, at: int) -> PlannedStep:
    """``first`` (at index ``at``) taking what ``again``, the same read said by a later action, adds (a
    return date); ``first`` unchanged when ``again`` says it otherwise (``_merged``)."""
    return _merged(first, again, at) or first


def _merged(first: PlannedStep, again: PlannedStep, at: int) -> PlannedStep | None:
    """``first`` (at index ``at``) with the inputs ``again`` adds, or None when ``again`` is another call:
    it states another value for an input, reads an input from a step at or after ``first``, or from
    another earlier step than ``first`` does (unless it reads both ends of a route from one step)."""
    given = {(s.name, s.table): s for s in first.inputs}
    blind = _ends_from_one_step(again)
    added: dict[tuple[str, str | None], InputSource] = {}
    for source in again.inputs:
        if source.origin == "user":
            continue  # asked of the user: what the first call was given serves
        if source.origin == "step" and (source.from_step is None or source.from_step >= at):
            return None  # found after the first call: about another thing
        mine = given.get((source.name, source.table))
        if mine is None or mine.origin == "user":
            added[(source.name, source.table)] = source
        elif _value(mine) != _value(source) and (source.origin != "step" or not blind or _picked(source)):
            return None  # said otherwise, read from another step, or another item of the same list
    inputs = [added.pop((s.name, s.table), s) for s in first.inputs]
    return first.model_copy(update={"inputs": inputs + list(added.values())})


def _given(names: set[str], steps: list[PlannedStep]) -> bool:
    """Whether each of ``names`` is a value ``steps`` were given, or picked an item by ("New York" for
    "New York City" too)."""
    values = [
        f" {str(v).lower()} "
        for step in steps
        for s in step.inputs
        for v in (s.value if s.origin in ("request", "known") else None, s.pick_value)
        if isinstance(v, str)
    ]
    return all(any(f" {n} " in v or v in f" {n} " for v in values) for n in names)


def _ends_from_one_step(step: PlannedStep) -> bool:
    """Both ends of a route read from one step: the call's own wiring tells its ends apart no more than
    a call that names none (what an earlier action's lookup found was handed to both)."""
    fed = [s for s in step.inputs if s.origin == "step" and input_role(s.name)]
    return {input_role(s.name) for s in fed} == {START, END} and len({s.from_step for s in fed}) == 1


def _value(source: InputSource) -> object:
    """Where an input comes from, down to the item of a list it picks and the text it is written into
    ("channel general" and "channel random" both read ``channels[].id`` of one list step)."""
    picked = (source.pick_field, repr(source.pick_value), source.pick_first, source.template)
    return (source.origin, repr(source.value), source.from_step, source.from_table, source.from_field, picked)


def _picked(source: InputSource) -> bool:
    """An item of a list picked by a stated name or as the newest, or the value written into a text."""
    return source.pick_value is not None or source.pick_first or source.template is not None


def _dropped(steps: list[PlannedStep], gone: int, kept: int) -> list[PlannedStep]:
    """``steps`` without step ``gone``: inputs it fed read ``kept``, later steps' indexes one less."""
    out = []
    for step in steps[:gone] + steps[gone + 1 :]:
        inputs = [_renumbered(s, gone, kept) for s in step.inputs]
        out.append(step.model_copy(update={"inputs": inputs}))
    return out


def _renumbered(source: InputSource, gone: int, kept: int) -> InputSource:
    if source.origin != "step" or source.from_step is None or source.from_step < gone:
        return source
    return source.model_copy(update={"from_step": kept if source.from_step == gone else source.from_step - 1})
