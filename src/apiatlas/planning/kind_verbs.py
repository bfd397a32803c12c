"""A request verb that is a kind of thing the catalog creates (issue 18, chains): "Refund the latest box …"
where no write of the catalog says the verb "refund" but ``POST /refunds`` creates refunds. Said as a verb
(opening an action, an article or another determiner after it: not "Refund status of …", "Refunds of
…"), it orders that create, fed by what the request names (the create's optional ``box``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from apiatlas.catalog.model import Api
from apiatlas.language.actions import BEFORE_A_VERB, PROCEDURE_VERBS, WORD
from apiatlas.language.catalog import singular
from apiatlas.language.words import NEWEST_WORDS, ORDINALS
from apiatlas.planning import values as v
from apiatlas.planning.lookups import input_kind, posted_to, singular_kind
from apiatlas.planning.write_choice import said_new
from apiatlas.text import stem

_WORD = re.compile(WORD.pattern + "|,", re.UNICODE)  # a word (``language.actions.WORD``) or a comma
_DETERMINERS = frozenset(
    ("the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "his", "her", "its", "their")
)
_BEFORE_A_NOUN = _DETERMINERS | NEWEST_WORDS | frozenset(ORDINALS)
_OPENING = BEFORE_A_VERB | frozenset((",", "please", "also"))
# a quantity of the thing the verb acts on, said before it ("Refund 25 EUR of payment P"): its object follows
_PART_OF = re.compile(r"(?<=[^\W\d_])\s+[$€£]?\d[\d.,]*\s*(?:%|[A-Za-z]{3}\b)?\s+of\s+(?:the\s+)?")


def created_kinds(keys: Iterable[str], kinds: Collection[str]) -> dict[str, list[str]]:
    """The kinds a ``POST`` to their collection creates (``POST /refunds``: refund), each with those
    keys; a path ending in a parameter or a dotted name creates no kind."""
    out: dict[str, list[str]] = {}
    for key in keys:
        last = posted_to(key)
        if not last or "." in last:
            continue
        kind = singular_kind(last)
        if kind in kinds and kind != last.lower():
            out.setdefault(kind, []).append(key)
    return out


def kind_verbs(
    text: str, created: Mapping[str, Sequence[str]], api: Callable[[str], Api | None], kinds: Collection[str]
) -> frozenset[str]:
    """The kinds of ``created`` (kind -> the keys creating it) the request says as verbs: the word, singular
    as the kind is, opening the request or an action (after "and", "then", a comma, "please"), a determiner
    after it, and then one thing of ``kinds`` a create of the kind takes ("Refund the latest parcel": ``POST
    /refunds`` takes a ``parcel``). A verb the kind only shares the word with acts on something else ("Order
    the customers by name", "Record a note", "Report the latest order" where a report takes no order)."""
    words = [w.lower() for w in _WORD.findall(quantity_dropped(text))]
    return frozenset(
        word
        for at, word in enumerate(words[:-1])
        if word in created
        and words[at + 1] in _DETERMINERS
        and (at == 0 or words[at - 1] in _OPENING)
        and (thing := _object(words, at + 1)) in kinds
        and _takes(map(api, created[word]), thing)
    )


def quantity_dropped(text: str) -> str:
    """``text`` with a quantity said between a verb and its object read as "the" ("Refund 25 EUR of
    payment P", "Refund $10 of the order O": "Refund the payment P", "Refund the order O")."""
    return _PART_OF.sub(" the ", text)


def _object(words: Sequence[str], at: int) -> str:
    """The noun an object phrase starting at ``at`` names (past its determiners, "latest", ordinals)."""
    while at < len(words) and words[at] in _BEFORE_A_NOUN:
        at += 1
    return words[at] if at < len(words) else ""


def _takes(apis: Iterable[Api | None], thing: str) -> bool:
    """Whether one of ``apis`` takes one ``thing`` (said singular) as an input named for it (``parcel``,
    ``parcel_id``, ``parcel_label``)."""
    if not thing or singular_kind(thing) != thing:
        return False
    return any(
        input_kind(a, p.name) == thing or re.split(r"_|(?=[A-Z])", p.name)[0].lower() == thing
        for a in apis
        if a is not None
        for p in a.params
    )


def new_kinds(text: str, found: Sequence[v.ExtractedValue], kinds: Collection[str]) -> set[str]:
    """The kinds of the things the request states as new ("Create a box Jenny Rosen": box, the kind of a
    stated name said after "a", ``write_choice.said_new``): what a write creates, though the kind noun lies
    inside the stated value."""
    return {h for f in found if (h := f.hint) in kinds and said_new(text, h)}


def noun_creates(hits: list[str], verb: str) -> list[str]:
    """Of write targets ``hits``, those creating the thing an English ``verb`` is the noun of ("Remind me
    …": ``POST /reminders.add``, not ``/reminders.delete``; "Bookmark …": ``POST /bookmarks``): a verb made
    from a noun does what makes one; ``hits`` as they were when none does, or when a write puts such things
    on an item ("Tag the post p-1": ``PUT /posts/{post_id}/tags``, not ``POST /tags``, ``_puts_on_item``)."""
    said = stem(verb) if verb.isascii() else ""
    if not said or any(_puts_on_item(k, said) for k in hits):
        return hits
    return [k for k in hits if _creates_noun(k, said)] or hits


def _puts_on_item(key: str, said: str) -> bool:
    """Whether ``key`` writes things whose noun's stem is ``said`` under an item (``…/{post_id}/tags``)."""
    method, _, path = key.partition(" ")
    parts = path.rstrip("/").split("/")
    return method != "DELETE" and len(parts) > 2 and parts[-2].startswith("{") and stem(parts[-1]) == said


def _creates_noun(key: str, said: str) -> bool:
    """Whether ``key`` is a ``POST`` creating things whose noun's stem is ``said``: a procedure named
    ``things.add`` (its action a create of ``PROCEDURE_VERBS``) or the collection ``POST /things``."""
    last = posted_to(key)
    if not last:
        return False
    if "." not in last:  # a collection, named in the plural (``/bookmarks``; ``…/delete`` is an action)
        return singular(last) != last.lower() and stem(last) == said
    noun, _, action = last.rpartition(".")
    return stem(noun.rsplit(".", 1)[-1]) == said and PROCEDURE_VERBS.get(action.lower()) == "create"
