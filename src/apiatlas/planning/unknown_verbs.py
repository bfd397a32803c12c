"""A verb nobody wrote down: a request opening with a word neither the language (``language.actions``,
``language.words``) nor the catalog's cards know, straight before a kind of thing of the catalog and the
thing's name ("Cordon node worker-5", "Quarantine the host h-1"): an imperative ordering a change of that
thing. The word is read as the action's verb, so the action ends at a write to the thing named (the
writes of its kind, ``KindWrites.of_kinds``; a partial change before a whole replacement)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from difflib import get_close_matches

from apiatlas.language.actions import ACTION_WORDS, ARTICLES, ASKING_VERBS, BEFORE_A_VERB
from apiatlas.language.catalog import singular
from apiatlas.language.words import PLAIN_WORDS, QUESTION_WORDS, SENTENCE_WORDS
from apiatlas.planning import values as v

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_KNOWN = ACTION_WORDS | PLAIN_WORDS | SENTENCE_WORDS
# verbs of looking the asking verbs leave out, English and Russian: a request opening with one reads the
# thing named ("Examine node n-1", «Глянь pod web-1»), never changes it
LOOKING_VERBS = frozenset(
    ("examine", "inspect", "peek", "glance", "review", "audit", "tail", "monitor", "browse", "preview",
     "scan", "study", "explore", "investigate", "survey", "summarize", "summarise", "analyze", "analyse",
     "глянь", "гляни", "взгляни", "погляди", "изучи", "осмотри", "просмотри", "опиши", "расскажи",
     "проанализируй")
)  # fmt: skip
_WHY = frozenset(("why", "почему", "зачем"))  # question words ``QUESTION_WORDS`` leaves out
_LOOKING = sorted(ASKING_VERBS | LOOKING_VERBS)
_SLIP = 0.75  # how close a word is to a verb of asking or looking to be that verb mistyped ("descirbe")


def unknown_verb(text: str, kinds: Collection[str], known: Callable[[str], bool]) -> str:
    """The opening word of ``text`` when it is no word of the language nor of the catalog (``known``: the
    catalog's cards use it) and a kind of ``kinds`` follows it (past an article), then more (the thing's
    name): "cordon" of "Cordon node worker-5"; "" otherwise ("Show node n-1", "Nodes of …"), and for a verb
    of looking the language's asking verbs leave out or a mistyped one ("Examine node n-1", "Descirbe …")."""
    words: list[str] = [w.lower() for w in _WORD.findall(text)]
    while words and words[0] in BEFORE_A_VERB:
        words = words[1:]
    at = 2 if len(words) > 2 and words[1] in ARTICLES else 1
    if len(words) < at + 2 or "-" in words[0]:
        return ""
    first, thing = words[0], words[at]
    if first in _KNOWN or singular(thing) not in kinds or singular(first) in kinds or known(first):
        return ""
    if not _ordered(text, words[at + 2 : at + 3]):
        return ""
    return "" if first in LOOKING_VERBS or _mistyped_read(first) else first


def _mistyped_read(word: str) -> bool:
    """Whether ``word`` is a verb of asking or looking mistyped ("descirbe", "examnie"): a read, not a
    change nobody wrote down (a mistyped verb of change is read as the change it is anyway)."""
    return bool(get_close_matches(word, _LOOKING, n=1, cutoff=_SLIP))


def _ordered(text: str, after: list[str]) -> bool:
    """Whether a request opening with an unknown word, a kind and a name orders something done to it: no
    question in it ("Hey box b-1, what is its status?") and no content word right after the name, which
    asks for a part of the thing ("Quick node worker-5 status"); a function word may follow ("… in …")."""
    words = {w.lower() for w in _WORD.findall(text)}
    if "?" in text or words & (QUESTION_WORDS | _WHY):
        return False
    return not after or after[0] in PLAIN_WORDS


def verb_unnamed(
    text: str, found: list[v.ExtractedValue], kinds: Collection[str], known: Callable[[str], bool]
) -> list[v.ExtractedValue]:
    """``found`` without a title opening with an unknown verb (``unknown_verb``) where a name of a kind
    follows it: "Quarantine deployment web" orders a change of the deployment web, it names no thing
    "Quarantine deployment"; "Nightfall box 1997 size" names no thing after the kind: a title."""
    opening = unknown_verb(text, kinds, known)
    if not opening or not any(f.kind == v.NAME and f.hint in kinds for f in found):
        return found
    return [f for f in found if f.kind != v.ENTITY or not f.text.lower().startswith(opening)]
