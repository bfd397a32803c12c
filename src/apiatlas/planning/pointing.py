"""Where a later action of a request points back at what the actions before it found: a pronoun ("pin it",
"show its members"), or "the" and a noun an earlier action said ("… grant? Show the role"); which of its
targets it tries first, and a read it repeats (the thing read once)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from apiatlas.catalog.model import CREDENTIAL_PARAMS, SideEffect
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import REFERRING_WORDS, TIME_NOUNS
from apiatlas.planning import values as v
from apiatlas.planning.actions import RequestAction
from apiatlas.planning.intent import named_kinds
from apiatlas.planning.model import CandidateChain, InputSource, PlannedStep
from apiatlas.planning.snapshot_reads import SnapshotCache


def refers_back(text: str, earlier: Sequence[str] = ()) -> bool:
    """An action pointing back at what an earlier one named ("pin it", "show its members", «покажи его
    участников»): a word of ``language.words.REFERRING_WORDS`` not before a noun of time ("for those
    dates" points back at a time, not at a thing the actions before found), or a verb and "the" before
    the one noun an ``earlier`` action said ("Which role does binding B grant? Show the role")."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    if said_again(text, earlier):
        return True
    return any(
        w in REFERRING_WORDS and (n + 1 >= len(words) or words[n + 1] not in TIME_NOUNS)
        for n, w in enumerate(words)
    )


def bare_change(action: RequestAction, found: list[v.ExtractedValue], vocabulary: CatalogVocabulary) -> bool:
    """Whether ``action`` orders a change naming no kind of thing and no thing by a kind's name ("… Update to
    image X", «… Поменяй на X»): what it changes is what the action before it acts on, as if it said "it"."""
    inside = [f for f in found if f.text in action.text]
    if not action.writes or any(f.hint in vocabulary.kind_set for f in inside):
        return False
    return not named_kinds(action.text, [f.text for f in found], vocabulary)


_PLACED_IT = re.compile(r"\b(?:in|into|to)\s+(?:it|them)\b", re.IGNORECASE)
_NEW = re.compile(r"\b(?:a|an|new|another)\s", re.IGNORECASE)


def named_destination(text: str, earlier: Sequence[str], kinds_of: Callable[[str], set[str]]) -> str:
    """``text`` with "in it", "into it", "to it" said as "to the" and the one kind the action before it
    names (``kinds_of``): where the thing goes is what the action before made or named ("Create a board B
    and put X in it": X goes to the board); not where a new thing is made ("… and a note N in it")."""
    match = _PLACED_IT.search(text)
    kinds = kinds_of(earlier[-1]) if match and earlier else set()
    if match is None or len(kinds) != 1 or _NEW.search(text[: match.start()]):
        return text  # "… and a service account tester in it": a new thing made in it, not put there
    return f"{text[: match.start()]}to the {next(iter(kinds))}{text[match.end() :]}"


def placed(actions: list[RequestAction], kinds_of: Callable[[str], set[str]]) -> list[RequestAction]:
    """The request's ``actions`` with each one's "in it" said as where it goes (``named_destination``)."""
    return [
        replace(a, text=named_destination(a.text, [b.text for b in actions[:n]], kinds_of))
        for n, a in enumerate(actions)
    ]


_TO_WHOM = frozenset(("me", "us"))
_THE_SAME = frozenset(("the", "that", "this"))


def said_again(text: str, earlier: Sequence[str]) -> bool:
    """An action of a verb, "the" (or "that", "this") and one noun (singular) an ``earlier`` action said
    ("… grant? Show the role", "… running on? Show me that node"): it names the thing the actions before
    found, nothing new."""
    words = [w for w in re.findall(r"[^\W\d_]+", text.lower()) if w not in _TO_WHOM]  # "show me that node"
    if len(words) != 3 or words[1] not in _THE_SAME or singular(words[2]) != words[2]:
        return False
    return any(words[2] in re.findall(r"[^\W\d_]+", e.lower()) for e in earlier)


def read_again(step: PlannedStep, earlier: list[PlannedStep], cache: SnapshotCache) -> bool:
    """Whether ``step``, pointing back, reads what the last step before it read: the same read API ("Which
    class does the claim X use? Show that class": the class read once, by the question)."""
    api = cache.api(step.api)
    same = bool(earlier) and earlier[-1].api == step.api
    return same and api is not None and api.side_effect is SideEffect.READ


def first_back(target: str, earlier: list[PlannedStep], again: bool) -> tuple[bool, bool]:
    """The order an action pointing back tries its targets in: one naming the thing the actions before
    found again (``said_again``) first the last one's own API; then a part of what they acted on."""
    return (again and not (earlier and earlier[-1].api == target)), not beneath(target, earlier)


def beneath(target: str, earlier: list[PlannedStep]) -> bool:
    """Whether ``target``'s path extends an earlier step's (``…/deployments/{name}/status`` after
    ``PATCH …/deployments/{name}``): a part of the thing the actions before acted on, which "its status"
    names first."""
    path = target.partition(" ")[2].rstrip("/")
    return any(path.startswith(s.api.partition(" ")[2].rstrip("/") + "/") for s in earlier)


def taking_back(
    chains: Sequence[CandidateChain], cache: SnapshotCache, feed: Callable[[InputSource, str], InputSource]
) -> CandidateChain | None:
    """Of the ``chains`` (best first) of an action pointing back that names a thing of its own, the first
    whose last step takes what the steps before it found through an input its chain leaves open
    ("… and remove her from the channel C": the write with an input for the person found; ``feed``: that
    input as the earlier steps feed it, ``origin`` "step" when an edge leads from one), the input added
    as one to feed; None when none does. A chain whose last step already asks the user for an input the
    earlier steps feed takes what they found as it is ("remove her": a required user input)."""
    for chain in chains:
        step = chain.steps[-1]
        if any(s.origin == "user" and feed(s, step.api).origin == "step" for s in step.inputs):
            return chain
        api = cache.api(step.api)
        own = {s.name for s in step.inputs}
        for param in api.params if api is not None else ():
            if param.name in own or param.location == "header" or param.name in CREDENTIAL_PARAMS:
                continue
            asked = InputSource(name=param.name, origin="user", required=False)
            if feed(asked, step.api).origin == "step":
                last = step.model_copy(update={"inputs": [*step.inputs, asked]})
                return chain.model_copy(update={"steps": [*chain.steps[:-1], last]})
    return None


def fed_through(
    chains: Sequence[CandidateChain], feed: Callable[[InputSource, str], InputSource]
) -> CandidateChain | None:
    """Of the ``chains`` (best first) of an action pointing back, the first of several steps whose every
    input left to the user the steps before feed through an edge (``feed``: ``origin`` "step"), one of
    them at least ("… Also find hotels there": the location search fed the place the forecast found, then
    the hotels of that location); None when none is."""
    for chain in chains:
        asked = [
            (s, step.api) for step in chain.steps for s in step.inputs if s.origin == "user" and s.required
        ]
        if len(chain.steps) > 1 and asked and all(feed(s, api).origin == "step" for s, api in asked):
            return chain
    return None
