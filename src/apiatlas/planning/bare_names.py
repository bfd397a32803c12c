"""Names said without their kind ("Pin the latest message in general", "Mark general as read", "in
#general"): their kind unknown, they fill no input; a list of named items may pick by them
(``lookups.picked_name``)."""

from __future__ import annotations

import re

from apiatlas.language.actions import ACTION_WORDS, WRITE_WORDS
from apiatlas.language.casing import as_read_in_place
from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import NEWEST_WORDS, PLAIN_WORDS, SENTENCE_WORDS
from apiatlas.planning import values as v

WORD = re.compile(r"[\w][\w.'’-]*", re.UNICODE)
PLACES = frozenset({"in", "into", "to", "from"})  # "… the latest message in announcements": where it is
SLUG = re.compile(r"[a-z][a-z0-9_-]*")
ENDS = re.compile(r"\s*(?:$|[,.;:!?]|and\b|then\b)")  # what follows a name ending a part of a request
NAME_MARK = "#"  # written right before a word, it marks the word as a name ("#general", "#q3-planning")


def bare_names(
    text: str, vocabulary: CatalogVocabulary, found: list[v.ExtractedValue], known: frozenset[str]
) -> list[v.ExtractedValue]:
    """Names said without their kind, in a catalog whose inputs are named for kinds (``named_inputs``):
    a lower-case word right after "in", "to", "into" or "from" (or "of" after the newest thing asked,
    ``_placed``) that ends the request or one of its parts ("Pin the latest message in general"), right
    after a write verb opening the request ("Mark general as read"), or marked as a name by ``#`` written
    right before it ("in #general and pin it", the mark not part of the name); no word the planner knows,
    no kind and part of no value found already. Its kind unknown (``hint`` ''), it fills no input; a list
    of named items whose id an input named for a kind takes may pick by it (``picked_name``)."""
    if not vocabulary.named_inputs:
        return []
    taken = {w.lower() for f in found for w in WORD.findall(f.text)}
    read = as_read_in_place(text)  # "PIN IT IN GENERAL" names GENERAL as "pin it in general" does
    out: list[v.ExtractedValue] = []
    for match in WORD.finditer(read):
        marked = read[match.start() - 1 : match.start()] == NAME_MARK
        before = read[: match.start()].split()
        name = match.group(0).rstrip(".'’")
        placed = _placed(before) and bool(ENDS.match(read, match.end()))
        if not (marked or placed or (len(before) == 1 and before[0].lower() in WRITE_WORDS)):
            continue  # nor the object of the verb opening the request ("Mark general as read")
        if (
            not SLUG.fullmatch(name)
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
        out.append(v.ExtractedValue(v.NAME, written, written, hint=""))
    return out


def _placed(before: list[str]) -> bool:
    """Whether the words ``before`` a word say where it is: a place's preposition ("in announcements"), or
    "of" after the newest thing asked ("the most recent message of announcements": whose it is)."""
    last = [w.lower() for w in before[-3:]]
    if not last:
        return False
    return last[-1] in PLACES or (last[-1] == "of" and len(last) == 3 and last[0] in NEWEST_WORDS)
