"""Whether a request's capitals say anything.

A capital inside a sentence marks a name ("Show the room General", "Find reader Petrov") or an acronym
("list VMs in zone prod"). A request written all in capitals ("LIST ORDERS OF SHOP NORTH", «НАЙДИ
ЧИТАТЕЛЯ ПЕТРОВА») or with every word capitalised, function words too ("Delete The Order Old-Box") marks
no word by its capitals; every content word capitalised alone is how a sentence of names is written
("Find Ivan Petrov", «Найди Сидорова Петра»: a verb and a person's names), and says what it says:
the search reads it as if written in lower case (its names and values, ``search.reach``, and its meaning:
the query is embedded in lower case), and the planner reads no name by its capitals (``planning.values``;
its ids, numbers, codes and the values it names are read as written). A quoted value or an id in lower
case is written as the value is ('LIST LOANS OF READER "Ada Lovelace"', "GET ITEM web-1"): it has no say.
"""

from __future__ import annotations

import re
from itertools import pairwise

from apiatlas.language.words import FUNCTION_WORDS

MIN_CAPITALS_WORDS = 2  # a request all in capitals: at least this many words with letters
# every word capitalised: at least this many words ("Find Petrov", "Ada Lovelace" are a verb or a first name
# and a name, written as a sentence writes them)
MIN_TITLE_WORDS = 3  # ... and one of them, past the first, a function word ("Of", «По»): a title's style
# quoted text: double quotes, «», “”, „“, or single quotes outside a word (not the apostrophe of "what's")
_QUOTED = re.compile(r"[\"«“„][^\"»”“]+[\"»”“]|(?<!\w)'[^']+'(?!\w)")
ID_INSIDE = re.compile(r"\d|[-_#@/.]")  # a digit or a mark inside a word: an id ("web-1", "#general")
_APOSTROPHE = re.compile(r"['’]")
_PUNCTUATION = ".,!?;:()\"'«»“”„"


def _cased(token: str) -> str:
    """The letters of ``token`` that have a case (no digit, mark or letter of a caseless script)."""
    return "".join(c for c in token if c.isupper() or c.islower())


def _inner_capital(token: str) -> bool:
    """Whether a capital follows a lower-case letter in ``token`` ("SetDefaultSize", "iPhone")."""
    return any(a.islower() and b.isupper() for a, b in pairwise(token))


def _written_as_a_value(token: str, cased: str) -> bool:
    """An id in lower case ("web-1", "north-east", "#general"): written as the value is."""
    if not cased.islower():
        return False
    return marked(token.strip(_PUNCTUATION))


def marked(word: str) -> bool:
    """An id or a joined name: a leading ``#`` or ``@``, a digit or one of ``-_#@/.`` inside."""
    return word[:1] in ("#", "@") or bool(ID_INSIDE.search(word[1:]))


def before_apostrophe(word: str) -> str:
    """``word`` in lower case up to its apostrophe, if any ("I'm" -> "i", "Olga's" -> "olga")."""
    return _APOSTROPHE.split(word.lower())[0]


def casing_says_nothing(text: str) -> bool:
    """Whether ``text`` is written all in capitals (``MIN_CAPITALS_WORDS`` words with letters or more) or
    with every word's first letter a capital, a function word's too (``MIN_TITLE_WORDS`` words or more,
    fewer of them all in capitals than not): its capitals mark no name. One lower-case word ("Show the
    room General", "list VMs") or a capital after a lower-case letter (a code name, "Window SetDefaultSize
    Gtk") and its capitals say something. Quoted text and ids in lower case are left out
    (``_written_as_a_value``). One pass over the words."""
    capitals = titled = 0
    function = False  # a function word past the first word capitalised: every word is, as titles write
    for token in _QUOTED.sub(" ", text).split():
        cased = _cased(token)
        if not cased or _written_as_a_value(token, cased):
            continue
        if not cased[0].isupper() or _inner_capital(token):
            return False
        function = function or (capitals + titled > 0 and cased.lower() in FUNCTION_WORDS)
        if cased.isupper():
            capitals += 1
        else:
            titled += 1
    words = capitals + titled
    if words < MIN_CAPITALS_WORDS:
        return False
    # every word capitalised, most of them as a name is ("Old-Api"): a word all in capitals among them is
    # an acronym ("List VMs In Zone Prod"); one capitalised among words in capitals is a name
    # ("НАЙДИ ЧИТАТЕЛЯ Петрова")
    return titled == 0 or (words >= MIN_TITLE_WORDS and titled > capitals and function)


def as_read(text: str) -> str:
    """``text`` in lower case when its casing says nothing (``casing_says_nothing``), else as written."""
    return text.lower() if casing_says_nothing(text) else text


def as_read_in_place(text: str) -> str:
    """``as_read``, where the lower case keeps every character's place (else ``text`` as written): a reader
    that matches the text read and takes its values from the text written ("İ" lowers to two)."""
    read = as_read(text)
    return read if len(read) == len(text) else text
