"""A verb nobody wrote down: a request opening with a word neither the language (``language.actions``,
``language.words``) nor the catalog's cards know, straight before a kind of thing of the catalog and the
thing's name ("Cordon node worker-5", "Quarantine the host h-1"): an imperative ordering a change of that
thing. The word is read as the action's verb, so the action ends at a write to the thing named (the
writes of its kind, ``KindWrites.of_kinds``; a partial change before a whole replacement)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from apiatlas.language.actions import ACTION_WORDS, ARTICLES, BEFORE_A_VERB
from apiatlas.language.catalog import singular
from apiatlas.language.words import PLAIN_WORDS, SENTENCE_WORDS

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_KNOWN = ACTION_WORDS | PLAIN_WORDS | SENTENCE_WORDS


def unknown_verb(text: str, kinds: Collection[str], known: Callable[[str], bool]) -> str:
    """The opening word of ``text`` when it is no word of the language nor of the catalog (``known``: the
    catalog's cards use it) and a kind of ``kinds`` follows it (past an article), then more (the thing's
    name): "cordon" of "Cordon node worker-5"; "" otherwise ("Show node n-1", "Nodes of …")."""
    words: list[str] = [w.lower() for w in _WORD.findall(text)]
    while words and words[0] in BEFORE_A_VERB:
        words = words[1:]
    at = 2 if len(words) > 2 and words[1] in ARTICLES else 1
    if len(words) < at + 2 or "-" in words[0]:
        return ""
    first, thing = words[0], words[at]
    if first in _KNOWN or singular(thing) not in kinds or singular(first) in kinds or known(first):
        return ""
    return first
