"""Which write a request's action ends at: the writes whose path or title says its verb, those to a kind
the request names, the collection's own write, the patch a change is made with rather than a whole
replacement (split out of ``actions``, which finds where a request's actions begin and end)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.language.actions import (
    CHANGE_VERBS_EN,
    DONE_AS,
    REQUEST_WORDS,
    SAID_AS,
    orders_write,
)
from apiatlas.language.catalog import singular
from apiatlas.language.words import EVERY_WORDS
from apiatlas.planning.binding import Slot
from apiatlas.planning.twin_routes import own_routes
from apiatlas.planning.write_fields import fields_written, with_fields
from apiatlas.text import stem, stems


def reads(api: Api | None) -> bool:
    """An API that only reads."""
    return api is None or api.side_effect is SideEffect.READ


def write_targets(
    hits: list[str],
    api: Callable[[str], Api | None],
    verb: str,
    words: Sequence[str] = (),
    of_kinds: Collection[str] = (),
    members: Collection[str] = (),
    stated: Collection[str] = (),
    gives: bool = False,
) -> list[str]:
    """The targets of an action ordering a write (``verb``): of the candidate ``hits``, the writes whose
    path or title says the verb ("pin": ``POST /pins.add``, "Pins an item"), else every write, else the
    hits as they were (the caller may not write: the plan stays a read). An HTTP ``DELETE`` only when
    the request says deleting (``words``: "restart them by deleting them"), not for "label the node".
    ``of_kinds``: the writes to a kind the request names (they win over the verb's other writes);
    ``members``: the writes to the things inside the kind where a thing goes ("add X to the team T").
    ``stated``: the kinds of the things the request names (the hints of its stated values) but those it
    says are new (``said_new``): a verb that creates nothing ("restart the server web") does not end at
    the create of a kind it names one of (``POST /servers`` beside ``PATCH /servers/{name}``). A verb of
    another script than the catalog's («удали») also says its action's words in the catalog's (delete,
    remove). A verb no write says is done as the action ``DONE_AS`` names when one says that (cancel:
    the write saying delete). ``gives``: the action gives a thing to what a pronoun stands for («задай ему
    квоту»): a verb the language does not know ends at the writes, not at any hit."""
    writes = [k for k in hits if not reads(api(k))]
    said = _verb_stems(verb)
    deleting = {stem(w) for w in REQUEST_WORDS["delete"]}
    if not deleting & {stem(w) for w in (verb, *words)}:  # a DELETE that says the verb stays ("cancel")
        writes = [k for k in writes if not k.startswith("DELETE ") or said & _title_stems(api(k))] or writes
    if verb not in REQUEST_WORDS["create"]:  # a change of a thing named: no new one created
        writes = [k for k in writes if not _creates_named(k, writes, stated)] or writes
    named = [k for k in writes if said & _own_stems(api(k))]
    if not named and (done := _done_as(verb)):  # "Cancel the message scheduled …": its delete
        named = [k for k in writes if done & _own_stems(api(k))]
    kinded = [k for k in writes if k in of_kinds]  # writes to a kind of thing the request names
    if kinded:  # "limit it with a usage quota": not a limit rule; «удали под …»: the pod's delete
        named = [k for k in kinded if said & _own_stems(api(k))] or kinded
    named = with_fields(named, fields_written(writes, api, verb, words, stated), kinded)  # "the email of X"
    named += [k for k in writes if k in members and k not in named]  # to the things in where it goes
    named = own_routes(named)  # not the same write under a parent (``twin_routes``)
    # a verb the language does not know: only a write saying it ("sort them": no write), unless it gives a
    # thing to what a pronoun stands for (``gives``: «задай ему квоту»): the writes
    return named or (writes if orders_write(verb) or gives else []) or hits


def _done_as(verb: str) -> set[str]:
    """The stems of the action ``verb``'s action is done as where no write says it (``DONE_AS``: cancel ->
    delete, remove, …); none for another verb."""
    action = next((a for a, forms in REQUEST_WORDS.items() if verb in forms), "")
    other = DONE_AS.get(action, "")
    return {stem(w) for w in REQUEST_WORDS.get(other, ()) if w.isascii()}


def _creates_named(key: str, writes: Collection[str], stated: Collection[str]) -> bool:
    """``POST /a/things`` when a write of ``/a/things/{…}`` is among ``writes`` and a thing of that kind
    is named (``stated``): the collection's create, not a change of the thing named."""
    method, _, path = key.partition(" ")
    if method != "POST" or singular(path.rstrip("/").rsplit("/", 1)[-1]) not in stated:
        return False
    return any(w.partition(" ")[2].startswith(f"{path.rstrip('/')}/{{") for w in writes)


def said_new(text: str, kind: str) -> bool:
    """Whether ``text`` says a new thing of ``kind``: an indefinite article, "new" or "another" before the
    kind noun ("Set up a server web-2", "Start a new server named web-2"), not "the server web-1"."""
    return bool(re.search(rf"\b(?:an?|new|another)\s+(?:new\s+)?{re.escape(kind)}\b", text, re.IGNORECASE))


def says_verb(api: Api | None, verb: str) -> bool:
    """Whether an API's path or title says ``verb`` (or the action it is done as, ``_done_as``); an HTTP
    ``DELETE`` says every verb of deleting ("remove it": ``DELETE /boxes/{name}`` titled "Delete a box")."""
    own = _own_stems(api)
    if api is not None and api.key.startswith("DELETE ") and verb in REQUEST_WORDS["delete"]:
        return True
    return bool(_verb_stems(verb) & own or _done_as(verb) & own)


def _verb_stems(verb: str) -> set[str]:
    """The stems a write's path or title says the verb with: its own, and for a verb not written in
    Latin letters those of its action's Latin words («удали»: delete, remove, erase)."""
    out = {stem(verb)} | {stem(w) for w in SAID_AS.get(verb, ())}  # "say": post, send, write
    if verb and not verb.isascii():
        out |= {stem(CHANGE_VERBS_EN[verb])} if verb in CHANGE_VERBS_EN else set()  # «закрепи»: pin
        for forms in REQUEST_WORDS.values():
            if verb in forms:
                out |= {stem(f) for f in forms if f.isascii()}
    return out


_WHOLE_WRITES = ("DELETE", "PUT", "PATCH")  # a POST to the collection creates: no change to every item


def collection_write(key: str) -> str:
    """The same write done to a whole collection: ``DELETE …/boxes/{name}`` -> ``DELETE …/boxes``; '' when
    the key's path does not end in an item's parameter."""
    method, _, path = key.partition(" ")
    head, _, last = path.rstrip("/").rpartition("/")
    return f"{method} {head}" if method in _WHOLE_WRITES and last.startswith("{") and head else ""


def says_every(words: Sequence[str]) -> bool:
    """The request says the change is done to every thing of a kind ("all", "every", «все»)."""
    return any(w.lower() in EVERY_WORDS for w in words)


def composed(api: Api, slot: Slot) -> bool:
    """Whether ``slot`` is the object a write's body carries (a patch document): the change the request
    orders, which the caller composes from it, not a value to look up: asked, at no cost (a ``PUT`` or
    ``POST`` whose body fields are optional costs none either)."""
    return (
        not reads(api)
        and slot.table is None
        and slot.json_type == "object"
        and any(p.name == slot.name and p.location == "body" for p in api.params)
    )


def replaces_whole(api: Api, patch: Api | None, words: list[str]) -> bool:
    """Whether ``api`` is a ``PUT`` (a whole thing replaced) whose path a ``PATCH`` (``patch``, one the
    caller may call) also serves, and the request says no word of the ``PUT``'s title that the ``PATCH``'s
    lacks ("replace"): a change a request orders ("scale …", "label …") is a partial one unless it says
    otherwise."""
    if patch is None or not api.key.startswith("PUT "):
        return False
    own = set(stems(api.title)) - set(stems(patch.title))
    return not own & {s for w in words for s in stems(w)}


def _title_stems(api: Api | None) -> set[str]:
    """The stems of an API's title (a ``DELETE`` titled "Cancel a booking" cancels), a hyphenated word's
    also as one ("Un-stars": unstar)."""
    if api is None:
        return set()
    return set(stems(api.title)) | set(stems(_HYPHEN.sub("", api.title)))


_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def _own_stems(api: Api | None) -> set[str]:
    """The stems of an API's path (its method left out: every write's key says POST) and title."""
    if api is None:
        return set()
    return set(stems(api.key.split(" ", 1)[-1])) | _title_stems(api)
