"""One plan for a request of several actions: each action's best chain, in the request's order, the
steps two actions share done once, and an input a later action lacks fed by an earlier action's step."""

from __future__ import annotations

import re
from itertools import product

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.planning.actions import RequestAction
from apiatlas.planning.earlier_feeds import NAMED_KINDS, fed_from_earlier, named_again
from apiatlas.planning.model import (
    CandidateChain,
    InputSource,
    PlannedStep,
    PlanResult,
    PlanValue,
)
from apiatlas.planning.pointing import (
    fed_through,
    first_back,
    read_again,
    refers_back,
    said_again,
    taking_back,
)
from apiatlas.planning.restated import STATED_KINDS, said_once, with_added
from apiatlas.planning.snapshot_reads import SnapshotCache


def combined_plan(
    request: str,
    parts: list[tuple[RequestAction, PlanResult]],
    cache: SnapshotCache,
    step_cost: float,
    missing_cost: float = 0.0,
) -> PlanResult:
    """The plan of a request of several actions (``actions.split_actions``): its best chain is every
    action's best chain in the order the request says them (``join_chains``); ``parts`` keeps each
    action's own plan, the chain the joined plan takes for it first. An action with no chain makes the
    plan partial (or an error when none has one).
    ``step_cost``: what the planner's score takes for one more step (``Weights.step``); ``missing_cost``:
    for an input asked of the user (``Weights.missing``), which an earlier action's steps may spare."""
    answered = [(action, result.chains) for action, result in parts if result.chains]
    lost = [action.text for action, result in parts if not result.chains]
    values: list[PlanValue] = []
    for _, result in parts:
        values.extend(x for x in result.values if x not in values)
    out = PlanResult(
        request=request, values=values, parts=[result for _, result in parts],
        targets=list(dict.fromkeys(t for _, result in parts for t in result.targets)),
        elapsed_ms=round(sum(result.elapsed_ms for _, result in parts), 3),
    )  # fmt: skip
    if not answered:
        out.status, out.reason = "error", ReasonCode.NO_MATCH
        out.message = "no chain answers any action of the request: " + "; ".join(lost)
        return out
    earlier = [[b.text for b, _ in answered[:n]] for n in range(len(answered))]
    back = [refers_back(a.text, e) for (a, _), e in zip(answered, earlier, strict=True)]
    repeated = [said_again(a.text, e) for (a, _), e in zip(answered, earlier, strict=True)]
    names = {str(x.value).lower() for x in values if x.kind in NAMED_KINDS}
    stated = [
        {str(x.value).lower() for x in r.values if x.kind in STATED_KINDS} for _, r in parts if r.chains
    ]
    chain, chosen = join_chains(
        [c for _, c in answered], cache, back, step_cost, names, missing_cost, repeated, stated
    )
    out.chains = [chain]
    taken = iter(chosen)  # each answered action's own plan, the chain the joined one takes for it first
    out.parts = [_taken_first(r, next(taken)) if r.chains else r for r in out.parts]
    said = "; ".join(
        f"{n}. {action.text!r} → {c.target}"
        for n, ((action, _), c) in enumerate(zip(answered, chosen, strict=True), 1)
    )
    out.message = f"{len(chosen)} actions in {len(chain.steps)} step(s): {said}"
    if lost:
        out.status, out.reason = "partial", ReasonCode.NO_MATCH
        out.message += "; no chain for: " + "; ".join(lost)
    elif chain.missing:
        out.status, out.reason = "partial", ReasonCode.MISSING_REQUIRED_INPUT
        out.message += "; ask the user for: " + ", ".join(chain.missing)
    return out


def _taken_first(result: PlanResult, taken: CandidateChain) -> PlanResult:
    """``result`` with ``taken`` (the chain the joined plan takes for the action) as its first chain: the
    plan's confidence reads each action's signals from its first chain (``confidence.plan_signals``)."""
    return result.model_copy(update={"chains": [taken, *(c for c in result.chains if c is not taken)]})


def join_chains(
    candidates: list[list[CandidateChain]],
    cache: SnapshotCache,
    back: list[bool] | None,
    step_cost: float,
    names: set[str] | None = None,
    missing_cost: float = 0.0,
    repeated: list[bool] | None = None,
    stated: list[set[str]] | None = None,
) -> tuple[CandidateChain, list[CandidateChain]]:
    """Each action's best chain (of its ``candidates``) one after another as one chain, and the chains
    chosen: a step equal to one already in it (the same API with the same inputs: one lookup feeding two
    later actions) is done once, and an input a later chain asks of the user is fed by an earlier
    chain's step when an edge leads from it (``fed_from_earlier``) or takes the value an earlier step was
    given under the same name ("… in namespace shop and show its …"). A later action that points back
    (``back``: "… and pin it", "… and show its members") ends at the best of its targets that the steps
    before feed, its last step alone: what it acts on is what the actions before found or made, not a
    new lookup of one of its own values ('post "bye" in it' looks up no "bye"). A name (``names``) a
    later action states again is taken from the earlier step it was given to, as that step's result
    names it (``named_again``). ``repeated``: the later actions naming again the thing the ones before found
    (``said_again``), whose targets the API of the step before is tried first of."""
    steps: list[PlannedStep] = []
    given: list[PlannedStep] = []  # each step as its action's chain gave it (before ``named_again``)
    why: list[str] = []
    chosen: list[CandidateChain] = []
    ends: list[int] = []  # each action's last step
    candidates = _coherent(candidates, back, step_cost, cache, missing_cost)
    for number, chains in enumerate(candidates, 1):
        before = len(steps)
        named_before = bool(repeated and repeated[number - 1])  # "… grant? Show the role": read before
        feed = lambda s, api: fed_from_earlier(s, api, steps, cache)  # noqa: E731
        pointed = number > 1 and back is not None and back[number - 1]
        through = fed_through(chains[:JOINT_CANDIDATES], feed) if pointed else None
        if pointed:
            found = next(
                (
                    (c, alone)
                    for c in sorted(chains, key=lambda c: first_back(c.target, steps, named_before))
                    if (alone := _target_alone(c.steps[-1], steps, cache)) is not None
                ),
                None,
            )
            if found is not None and through is not None and through.score > found[0].score:
                found = None  # a chain of its own the steps before feed: "… Also find hotels there"
            if found is not None and read_again(found[1], steps, cache):  # "… use? Show that class"
                chosen.append(found[0])
                steps[-1] = with_added(steps[-1], found[1], len(steps) - 1)  # "… and returns May 9"
                why.append(f"action {number}: {found[1].api}, read by the action before it")
                continue
            if found is not None:
                chosen.append(found[0])
                steps.append(found[1])
                given.append(found[1])
                why.append(f"action {number}: {found[1].api}, on what the actions before it name")
                ends.append(len(steps) - 1)
                continue
            if (took := through or taking_back(chains[:JOINT_CANDIDATES], cache, feed)) is not None:
                chains = [took, *chains]  # "… and remove her from C": the write taking her
        chain = chains[0]
        chosen.append(chain)
        at: list[int] = []  # the chain's step index -> the joined chain's
        for index, step in enumerate(chain.steps):
            inputs = [_moved(s, at) for s in step.inputs]
            if number > 1:
                inputs = [
                    fed_from_earlier(s, step.api, steps[:before], cache, searched=True)
                    if s.origin == "user"
                    else s
                    for s in inputs
                ]
            moved = step.model_copy(update={"inputs": inputs})
            last = index == len(chain.steps) - 1  # what the action does is done, even when done before
            same = None if last else next((i for i, s in enumerate(given) if _same(s, moved)), None)
            if same is None:
                given.append(moved)
                if number > 1:  # a call of its own: a name said again is the earlier call's
                    again = [named_again(s, steps[:before], cache, names or set()) for s in inputs]
                    moved = step.model_copy(update={"inputs": again})
                steps.append(moved)
                same = len(steps) - 1
            at.append(same)
        ends.append(at[-1])
        why.append(f"action {number}: " + " → ".join(chain.api_keys) + f" (score {chain.score:.2f})")
        if any(i < before for i in at):
            why.append(
                f"action {number} shares {sum(1 for i in at if i < before)} step(s) with the ones before"
            )
    steps = said_once(steps, ends, lambda key: _reads(cache, key), stated)  # each action's stated names
    missing = [f"{s.api}.{i.name}" for s in steps for i in s.inputs if i.origin == "user" and i.required]
    confidence = 1.0
    for chain in chosen:
        confidence *= chain.confidence
    joined = CandidateChain(
        steps=steps, score=round(sum(c.score for c in chosen), 4), entry_point=steps[0].api,
        target=steps[-1].api, confidence=round(confidence, 4), missing=missing, why=why,
    )  # fmt: skip
    return joined, chosen


JOINT_CANDIDATES = 4  # chains per action weighed together (4 ** 4 combinations at the most)
MAX_JOINT_ACTIONS = 4


def _coherent(
    candidates: list[list[CandidateChain]],
    back: list[bool] | None,
    step_cost: float,
    cache: SnapshotCache | None = None,
    missing_cost: float = 0.0,
) -> list[list[CandidateChain]]:
    """Each action's chains with the one to use first: of every combination of each action's best few,
    the one whose scores summed, plus a step's cost for each step an action shares with the ones before
    it (done once: a step the joined plan does not pay twice; ``step_cost`` is the planner's own price of
    a step, ``Weights.step``), is highest. "Details and offers for X" ends both actions on X's search
    when that beats a details API of another kind by less than the step it saves. An input a chain asks
    of the user that the chains before it would feed (``fed_from_earlier``) gets ``missing_cost`` back:
    "I need hotel options" takes its place from the weather step before it."""
    movable = [i for i in range(len(candidates)) if not (back and back[i]) and len(candidates[i]) > 1]
    if not movable or len(candidates) > MAX_JOINT_ACTIONS:
        return candidates
    pools = [chains[:JOINT_CANDIDATES] if i in movable else chains[:1] for i, chains in enumerate(candidates)]
    best = max(
        product(*(range(len(p)) for p in pools)),
        key=lambda pick: _joint_score(pools, pick, step_cost, cache, missing_cost),
    )
    return [
        [chains[pick], *(c for n, c in enumerate(chains) if n != pick)]
        for chains, pick in zip(candidates, best, strict=True)
    ]


def _joint_score(
    pools: list[list[CandidateChain]],
    pick: tuple[int, ...],
    step_cost: float,
    cache: SnapshotCache | None = None,
    missing_cost: float = 0.0,
) -> tuple[float, int]:
    seen: set[tuple[object, ...]] = set()
    shared = 0
    total = 0.0
    before: list[PlannedStep] = []
    for pool, index in zip(pools, pick, strict=True):
        chain = pool[index]
        total += chain.score
        if cache is not None and missing_cost and before:
            spared = sum(
                1
                for step in chain.steps
                for s in step.inputs
                if s.origin == "user"
                and s.required
                and fed_from_earlier(s, step.api, before, cache, True).origin != "user"
            )
            total += missing_cost * spared
        before = before + list(chain.steps)
        keys = [_call_key(step) for step in chain.steps[:-1]]  # what the action does is its own
        shared += sum(1 for key in keys if key in seen)
        seen.update(keys)
    return round(total + step_cost * shared, 6), -sum(pick)  # ties: each action's own best


def _reads(cache: SnapshotCache, key: str) -> bool:
    api = cache.api(key)
    return api is not None and api.side_effect is SideEffect.READ


def _call_key(step: PlannedStep) -> tuple[object, ...]:
    """A step as a call two actions could share: its API and its inputs from the same places, an input
    fed by an earlier step by the field that feeds it (which step it is differs from chain to chain)."""
    return step.api, tuple(_inputs_shape(step, positions=False))


_ID_NAME = re.compile(r"(?:^|_)ids?$|[a-z]Ids?$")  # ``id``, ``call_id``, ``callId``


def _target_alone(
    target: PlannedStep, earlier: list[PlannedStep], cache: SnapshotCache
) -> PlannedStep | None:
    """``target`` with its inputs fed by ``earlier`` steps instead of its own chain's; None when one its
    chain fed is not, or when none is fed by what the earlier steps have or were given (it would not act
    on what they name): an earlier step's output, or the value an earlier step was given under the same
    name (the namespace the deployment was created in, for "… and expose it"); None too when it would still
    ask the user for a required id (a call's ``id`` beside the user fed: it acts on another thing)."""
    inputs = []
    taken = False
    for source in target.inputs:
        if source.origin == "step":
            fed = fed_from_earlier(source.model_copy(update={"origin": "user"}), target.api, earlier, cache)
            if fed.origin == "user":
                return None
            source, taken = fed, True
        elif source.origin == "user":
            fed = fed_from_earlier(source, target.api, earlier, cache)
            if fed.origin == "user" and fed.required and _ID_NAME.search(fed.name):
                return None  # it still asks for the id of the thing it acts on
            source, taken = fed, taken or fed.origin != "user"
        inputs.append(source)
    if not taken:
        return None
    return target.model_copy(update={"inputs": inputs})


def _moved(source: InputSource, at: list[int]) -> InputSource:
    """``source`` with its earlier step renumbered as in the joined chain."""
    if source.origin != "step" or source.from_step is None or source.from_step >= len(at):
        return source
    return source.model_copy(update={"from_step": at[source.from_step]})


def _inputs_shape(step: PlannedStep, positions: bool = True) -> list[tuple[object, ...]]:
    """Where each input of a step comes from: its value as given, or the step (``positions``) and field."""
    return sorted(
        (
            s.name,
            s.table or "",
            s.origin,
            repr(s.value),
            (s.from_step or -1) if positions else 0,
            s.from_field or "",
        )
        for s in step.inputs
    )


def _same(a: PlannedStep, b: PlannedStep) -> bool:
    """The same call: one API given the same inputs from the same places."""
    return a.api == b.api and _inputs_shape(a) == _inputs_shape(b)
