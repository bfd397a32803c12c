"""Where a later action of a request points back at what the actions before it found: a pronoun ("pin it",
"show its members"), or "the" and a noun an earlier action said ("… grant? Show the role"); which of its
targets it tries first, and a read it repeats (the thing read once)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from apiatlas.catalog.model import SideEffect
from apiatlas.language.catalog import singular
from apiatlas.language.words import REFERRING_WORDS, TIME_NOUNS
from apiatlas.planning.model import PlannedStep
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


def said_again(text: str, earlier: Sequence[str]) -> bool:
    """An action of a verb, "the" and one noun (singular) an ``earlier`` action said ("… grant? Show the
    role"): it names the thing the actions before found, nothing new."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) != 3 or words[1] != "the" or singular(words[2]) != words[2]:
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
