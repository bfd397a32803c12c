"""Names a request says of the catalog's things (issue 18 point 3): beside a kind ("the channel releases",
"namespace shop"; the kind in a script the catalog does not write: «канала general»), before it, or
without it ("in announcements", "Mark general as read"), and the things it asks the newest of ("the latest
message"). Which input such a name fills, or which list it is picked from, is ``lookups``'."""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise

from apiatlas.language.actions import ACTION_WORDS, SAID_AS, WRITE_WORDS
from apiatlas.language.casing import as_read_in_place
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import (
    FILLER_WORDS,
    NEWEST_WORDS,
    ORDINALS,
    PLAIN_WORDS,
    PREPOSITIONS,
    SENTENCE_WORDS,
)
from apiatlas.planning import values as v
from apiatlas.planning.intent import kinds_read_as
from apiatlas.planning.lookups import singular_kind
from apiatlas.text import stem

_WORD = re.compile(r"[\w][\w.'’-]*", re.UNICODE)
_NAMING = frozenset({"called", "named"})  # "a channel called q3-planning": the name follows
_PLACES = frozenset({"in", "into", "to", "from"})  # "… the latest message in announcements": where it is
_SLUG = re.compile(r"[a-z][a-z0-9_-]*")
_ENDS = re.compile(r"\s*(?:$|[,.;:!?]|and\b|then\b)")  # what follows a name ending a part of a request
_PART_END = re.compile(r"[,.;:!?]|\band\b|\bthen\b")  # what ends a part of a request
_NAME_MARK = "#"  # written right before a word, it marks the word as a name ("#general", "#q3-planning")


def said_names(
    text: str,
    vocabulary: CatalogVocabulary,
    found: list[v.ExtractedValue],
    known: frozenset[str],
    across: Mapping[str, str] | None = None,
) -> list[v.ExtractedValue]:
    """Names said right after a kind of thing of the catalog ("the channel releases", "node n-1",
    "namespace shop", "a channel called q3-planning"): the word after the kind noun when it is no word
    the planner knows (``known``: plain, asking and action words, the catalog's vocabulary), no kind
    and part of no value found already. The kind noun may be said in a script the catalog does not
    write (``across``: its stem -> the catalog stem the search reads it as, «канала general» ->
    channel), the name then one with a Latin letter."""
    kinds = vocabulary.kind_set & frozenset(vocabulary.named_inputs)
    read_as = kinds_read_as(kinds, across or {})
    text, found = _outside_addresses(text, found)
    taken = {w.lower() for f in found for w in _WORD.findall(f.text)}
    words = _WORD.findall(text)
    out: list[v.ExtractedValue] = []
    for at, word in enumerate(words[:-1]):
        kind = word.lower()
        if said := _kind_in_words(words, at, kinds, vocabulary.naming):  # "the user group oncall"
            kind, at = said
        elif said := _kind_in_two_across(words, at, kinds, vocabulary.naming, across or {}):
            kind, at = said  # «группу пользователей design-team»: the user group design-team
        elif read_as and stem(kind) in read_as:
            kind = read_as[stem(kind)]
        elif kind not in vocabulary.plural_words and vocabulary.naming.get(kind, kind) in kinds:
            kind = vocabulary.naming.get(kind, kind)  # one word naming one: its initials ("the sul s-1")
        else:
            continue
        after = at + 2 if words[at + 1].lower() in _NAMING and at + 2 < len(words) else at + 1
        name = words[after].rstrip(".'’")
        low = name.lower()
        if low in taken or _no_name(low, after > at + 1, known, vocabulary.kind_set) or (
            low.isalpha() and low.endswith(("ed", "ing")) and not _ends_after(text, name)
        ):  # "the configmap mounted by …": a participle; "the channel marketing" ending the phrase: a name
            continue
        if any(f.kind == v.NAME and f.value == name for f in out):
            continue
        out.append(v.ExtractedValue(v.NAME, name, name, hint=kind))
    return out + _names_before(text, kinds, taken | {f.text.lower() for f in out}, known)


def _outside_addresses(text: str, found: list[v.ExtractedValue]) -> tuple[str, list[v.ExtractedValue]]:
    """The request without its web addresses, and the values but them: a word inside an address is no name
    and takes none said outside it ("the deployment web … image https://registry.example.com/web:2")."""
    addresses = [f for f in found if f.kind == v.URL]
    for f in addresses:
        text = text.replace(f.text, " ")
    return text, [f for f in found if f.kind != v.URL] if addresses else found


def _no_name(low: str, called: bool, known: frozenset[str], kinds: frozenset[str]) -> bool:
    """Whether the word ``low`` after a kind noun is no name: a word the planner knows, a kind, a known
    word misspelt (``_swapped``), no letter at all. After "called" or "named" a name is said whatever
    word it is ("the namespace called crd": not the kind its initials name) but a plain word."""
    if low in PLAIN_WORDS or low in SENTENCE_WORDS or low in PREPOSITIONS or not re.search(r"[a-z]", low):
        return True
    if called:
        return False
    return (
        low in known
        or low in kinds
        or low in ACTION_WORDS
        or singular(low) in kinds
        or _swapped(low, known)
    )


def _swapped(word: str, known: frozenset[str]) -> bool:
    """Whether ``word`` (letters only) is a word the planner knows with two letters side by side swapped
    ("the storage class detials": details, misspelt), no name."""
    return word.isalpha() and any(
        word[:i] + word[i + 1] + word[i] + word[i + 2 :] in known for i in range(len(word) - 1)
    )


def _kind_in_words(
    words: list[str], at: int, kinds: frozenset[str], naming: Mapping[str, str]
) -> tuple[str, int] | None:
    """The kind of ``kinds`` named by three or two words from ``at`` run together (``usergroup`` in "user
    group", a compound kind by its last words in "unit lease": ``CatalogVocabulary.naming``), a name
    after them, with the place of its last word; None when no such run names one."""
    for n in (3, 2):
        if at + n < len(words):
            said = naming.get("".join(w.lower() for w in words[at : at + n]), "")
            if said in kinds:
                return said, at + n - 1
    return None


def _kind_in_two_across(
    words: list[str], at: int, kinds: frozenset[str], naming: Mapping[str, str], across: Mapping[str, str]
) -> tuple[str, int] | None:
    """The kind of ``kinds`` two words from ``at`` in another script name, a name after them, with the
    place of the second: a head noun and the noun after it that says what it is of (Russian puts the
    modifier after its head in the genitive, «группа пользователей», where English puts it before: "user
    group"), each read as a catalog stem (``across``), run together in the English order."""
    if at + 2 >= len(words) or words[at].isascii() or words[at + 1].isascii():
        return None
    head, of = (across.get(stem(w.lower()), "") for w in words[at : at + 2])
    said = naming.get(of + head, "") if head and of else ""
    return (said, at + 1) if said in kinds else None


def _ends_after(text: str, word: str) -> bool:
    """Whether ``word`` ends a phrase of ``text`` where it stands (the end, a comma, "and", "then" next)."""
    at = re.search(rf"\b{re.escape(word)}\b", text)
    return at is not None and bool(_ENDS.match(text, at.end()))


_BEFORE_THE = frozenset({"in", "into", "to", "from", "of", "on"})
# words describing a thing before its kind, not naming it ("the same channel", "the default one")
_DESCRIBING = frozenset({"same", "other", "new", "old", "whole", "entire", "own", "next", "previous", "main"})


def _names_before(
    text: str, kinds: frozenset[str], taken: set[str], known: frozenset[str]
) -> list[v.ExtractedValue]:
    """A name said before its kind where the request says where ("… out of the sales channel", "to the
    q3-planning channel"): after a preposition and "the", the kind noun ending the phrase (the end, a
    comma, "and", "then" after it); no word the planner knows, no ordinal, newest or describing word,
    nothing ending like an adjective's degree ("-est", "-er")."""
    out, read = [], as_read_in_place(text)  # "OUT OF THE SALES CHANNEL" as "out of the sales channel"
    for match in _BEFORE_KIND.finditer(read):
        place, name, kind = (g.lower() for g in match.groups())
        if place not in _BEFORE_THE or kind not in kinds or not _ENDS.match(read, match.end()):
            continue
        if (
            any(name in words for words in (known, taken, kinds, PLAIN_WORDS, SENTENCE_WORDS, ACTION_WORDS))
            or name in NEWEST_WORDS
            or name in ORDINALS
            or name in _DESCRIBING
            or singular(name) in kinds
            or (name.isalpha() and name.endswith(("est", "er", "ed", "ing")))
        ):
            continue
        raw = text[match.start(2) : match.end(2)]  # as written
        out.append(v.ExtractedValue(v.NAME, raw, raw, hint=kind))
    return out


_BEFORE_KIND = re.compile(r"\b(\w+)\s+the\s+([\w][\w.-]*)\s+(\w+)\b", re.UNICODE)


def bare_names(
    text: str, vocabulary: CatalogVocabulary, found: list[v.ExtractedValue], known: frozenset[str]
) -> list[v.ExtractedValue]:
    """Names said without their kind, in a catalog whose inputs are named for kinds (``named_inputs``):
    a lower-case word right after "in", "to", "into" or "from" (or "of" after the newest thing asked,
    ``_placed``) that ends the request or one of its parts ("Pin the latest message in general"), right
    after a write verb opening the request ("Mark general as read"), or marked as a name by ``#`` written
    right before it ("in #general and pin it", the mark not part of the name); no word the planner knows,
    no kind and part of no value found already. Its kind unknown (``hint`` ''), it fills only an input
    taking names (``names_fill``), the first that does; a list of named items whose id an input named for
    a kind takes may pick by it (``picked_name``). A name placed or marked in the part of the request the
    verb's object opens comes before that object ("Post hello to #general": general, then hello, what is
    posted)."""
    if not vocabulary.named_inputs:
        return []
    text, found = _outside_addresses(text, found)
    taken = {w.lower().rstrip(".'’") for f in found for w in _WORD.findall(f.text)}  # "'… #launch'": launch
    read = as_read_in_place(text)  # "PIN IT IN GENERAL" names GENERAL as "pin it in general" does
    out: list[v.ExtractedValue] = []
    opening_at = -1  # where the object of the opening verb is, when it is one of ``out``
    for match in _WORD.finditer(read):
        marked = read[match.start() - 1 : match.start()] == _NAME_MARK
        before = read[: match.start()].split()
        name = match.group(0).rstrip(".'’")
        placed = _placed(before) and _ends_part(read, match.end())
        opening = before[0].lower() if len(before) == 1 else ""
        if not (marked or placed or (opening in WRITE_WORDS and opening not in SAID_AS)):
            continue  # nor the object of the verb opening the request ("Mark general as read"; "say hi": what
            # is said)
        if (
            not _SLUG.fullmatch(name)
            or name in known
            or name in taken
            or name in vocabulary.kind_set
            or singular(name) in vocabulary.kind_set
            or name in PLAIN_WORDS
            or name in SENTENCE_WORDS
            or name in ACTION_WORDS
        ):
            continue
        written = text[match.start() : match.start() + len(name)]  # the value as written
        value = v.ExtractedValue(v.NAME, written, written, hint="")
        if out and opening_at >= 0 and not _PART_END.search(read, opening_at, match.start()):
            out.insert(len(out) - 1, value)  # "Post hello to #general": the place first, then what is posted
        else:
            out.append(value)
        opening_at = match.end() if not (marked or placed) and len(out) == 1 else -1
    return out


def _ends_part(text: str, at: int) -> bool:
    """Whether a word ending at ``at`` ends the request or one of its parts, past filler words ("in
    north-lab right now": ``FILLER_WORDS``)."""
    if _ENDS.match(text, at):
        return True
    end = _PART_END.search(text, at)
    rest = _WORD.findall(text[at : end.start() if end else len(text)])
    return bool(rest) and all(w.lower() in FILLER_WORDS for w in rest)


def _placed(before: list[str]) -> bool:
    """Whether the words ``before`` a word say where it is: a place's preposition ("in announcements"), or
    "of" after the newest thing asked ("the most recent message of announcements": whose it is)."""
    last = [w.lower() for w in before[-3:]]
    if not last:
        return False
    return last[-1] in _PLACES or (last[-1] == "of" and len(last) == 3 and last[0] in NEWEST_WORDS)


def newest_things(text: str) -> frozenset[str]:
    """The kinds of thing a request asks the newest one of ("the latest message", "its most recent
    message", "the last message"): the word after a word of recency (``NEWEST_WORDS``), singular. A list
    of those things feeds the input taking one (``listed_item``), its first item picked."""
    words = [w.lower() for w in _WORD.findall(text)]
    return frozenset(
        singular_kind(after)
        for word, after in pairwise(words)
        if word in NEWEST_WORDS and after not in PLAIN_WORDS and after.isalpha()
    )
