"""Names given as values, told from names that modify a thing (the reach rules' ``held_after``).

A request names a person, a channel or an object by its own name as the value an operation takes
("invite Bob to #general", "send a message to Anna", "cancel Olga's order", «покажи профиль
Ольги»), or names another product as the modifier of a thing ("a Jira ticket", "the Square payment",
"acknowledge the PagerDuty alert"). The grammar tells them apart: a name (a run of words capitalised
inside the sentence, ``reach.plain_names``) is a value when nothing but a function word, a value or
the sentence's end follows it, or when it is a possessor ("Priya's …"); it modifies the word after it
when that word is a content word. A value is what the request hands the catalog, never a word its
cards must hold; a modifier says which thing, and the catalog must have that thing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.casing import ID_INSIDE, as_read, before_apostrophe
from apiatlas.language.words import PLAIN_WORDS
from apiatlas.text import stems

_EDGE = ".,!?;:()\"'«»“”"
_CLAUSE_END = ".,!?;:)"
_SENTENCE_END = ".!?:"  # the word after it opens a sentence: its capital names nothing
_POSSESSOR = re.compile(r"['’]s?$")
_JOINED = re.compile(r"[^\W\d_A-ZА-ЯЁ][A-ZА-ЯЁ]")  # a capital after a small letter: ConfigMap, GitHub


@lru_cache(maxsize=256)
def value_names(query: str) -> frozenset[str]:
    """Stems of the plain names (capitalised inside the sentence, no digit or mark) the request gives as
    values (module docstring): a run of such words followed by the sentence's end, a clause mark, a
    function word, a number or an id, or ending in a possessor (``'s``) — and handed to a word that takes
    it: a name after function words only ("where is Berlin", "who is Taylor Swift") is what the request
    asks about, no value it gives."""
    tokens = as_read(query).split()
    out: set[str] = set()
    run: list[str] = []
    taker = False  # a word before the run that can take a value: a verb or a noun, no function word
    for n, token in enumerate(tokens):
        word = token.strip(_EDGE)
        opens = n == 0 or tokens[n - 1][-1:] in _SENTENCE_END  # "Note: Buy …", "… done. Invite …"
        if opens or not _name(word):
            if run and taker and not _content(word):
                out.update(s for w in run for s in stems(w))
            run = []
            taker = taker or _content(word) or word.lower() in ACTION_WORDS  # find, list, покажи …
            continue
        run.append(word)
        if taker and (_POSSESSOR.search(word) or token[-1:] in _CLAUSE_END or n == len(tokens) - 1):
            out.update(s for w in run for s in stems(w))
            run = []
    return frozenset(out)


def _name(word: str) -> bool:
    """A capitalised word (not the first of its sentence: the caller says), no function word, without a
    digit or a mark, and not written all in capitals: an acronym or a code names a kind of thing
    ("convert 100 USD to EUR", "send an SMS to …", "which CRDs are installed"), as a noun does, not a
    person or an object of its own — and so does a word joined of capitalised parts ("create a
    ConfigMap", "open a PullRequest", "GitHub")."""
    lower = before_apostrophe(word)
    return (
        word[:1].isupper()
        and not _acronym(word)
        and not _JOINED.search(word)
        and lower not in PLAIN_WORDS
        and word[:1] not in ("#", "@")
        and not ID_INSIDE.search(word[1:])
    )


def _acronym(word: str) -> bool:
    """A word written in capitals, a plural's ``s`` aside ("USD", "SMS", "CRDs")."""
    core = word[:-1] if word.endswith("s") else word
    return len(core) > 1 and core.isupper()


def _content(word: str) -> bool:
    """Whether a word following a name makes it a modifier: a word of the language that is not a
    function word, a number or an id."""
    if not word or word[:1] in ("#", "@") or ID_INSIDE.search(word):
        return False
    return before_apostrophe(word) not in PLAIN_WORDS
