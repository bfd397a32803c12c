"""A request verb that is a kind of thing the catalog creates (issue 18, chains): "Refund the latest box …"
where no write of the catalog says the verb "refund" but ``POST /refunds`` creates refunds. Said as a verb
(opening an action, an article or another determiner after it: not "Refund status of …", "Refunds of
…"), it orders that create, fed by what the request names (the create's optional ``box``)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from apiatlas.language.actions import BEFORE_A_VERB
from apiatlas.planning import values as v
from apiatlas.planning.actions import said_new
from apiatlas.planning.lookups import singular_kind

_WORD = re.compile(r"[^\W\d_][\w'-]*|,", re.UNICODE)
_DETERMINERS = frozenset(
    ("the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "his", "her", "its", "their")
)
_OPENING = BEFORE_A_VERB | frozenset((",", "please", "also"))


def created_kinds(keys: Iterable[str], kinds: Collection[str]) -> dict[str, list[str]]:
    """The kinds a ``POST`` to their collection creates (``POST /v1/refunds``: refund), each with those
    keys; a path ending in a parameter or a dotted name creates no kind."""
    out: dict[str, list[str]] = {}
    for key in keys:
        method, _, path = key.partition(" ")
        last = path.rstrip("/").rsplit("/", 1)[-1]
        if method != "POST" or not last or last.startswith("{") or "." in last:
            continue
        kind = singular_kind(last)
        if kind in kinds and kind != last.lower():
            out.setdefault(kind, []).append(key)
    return out


def kind_verbs(text: str, created: Collection[str]) -> frozenset[str]:
    """The kinds of ``created`` the request says as verbs: the word, singular as the kind is, opening the
    request or an action (after "and", "then", a comma, "please"), a determiner after it."""
    words = [w.lower() for w in _WORD.findall(text)]
    return frozenset(
        word
        for at, word in enumerate(words[:-1])
        if word in created and words[at + 1] in _DETERMINERS and (at == 0 or words[at - 1] in _OPENING)
    )


def new_kinds(text: str, found: Sequence[v.ExtractedValue], kinds: Collection[str]) -> set[str]:
    """The kinds of the things the request states as new ("Create a box Jenny Rosen": box, the kind of a
    stated name said after "a", ``actions.said_new``): what a write creates, though the kind noun lies
    inside the stated value."""
    return {h for f in found if (h := f.hint) in kinds and said_new(text, h)}
