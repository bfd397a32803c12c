"""The write a change of one field of a thing ends at (issue 18, chains): "Change the email of account A to
x@example.com" names the field it changes; the write whose body takes that field (the thing's own update,
titled "Updates …") is the one ordered, not a write of a part of the thing whose title happens to say the
verb ("Changes the settings on an account's wallet")."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from apiatlas.catalog.model import Api
from apiatlas.language.actions import REQUEST_WORDS
from apiatlas.language.words import PLAIN_WORDS

_UPDATING = frozenset(REQUEST_WORDS["update"])


def fields_written(
    writes: Sequence[str],
    api: Callable[[str], Api | None],
    verb: str,
    words: Sequence[str],
    stated: Collection[str] = (),
) -> list[str]:
    """Of ``writes``, those whose body takes a field a word of the request names (``email``), when the
    verb orders an update ("change", "edit", «измени»); the kinds of the things the request names
    (``stated``: "account" of "account A") are what is changed, not fields of it."""
    if verb not in _UPDATING:
        return []
    said = {w.lower() for w in words} - set(stated) - PLAIN_WORDS - _UPDATING
    if not said:
        return []
    return [
        key
        for key in writes
        if (found := api(key)) is not None
        and any(p.location == "body" and p.name.lower() in said for p in found.params)
    ]


def with_fields(named: list[str], fielded: list[str], kinded: Collection[str]) -> list[str]:
    """The writes an update ends at: those of ``named`` (saying the verb, or to the kind named) that take a
    field the request names, else those taking it (of the kind named, when some are), else ``named``."""
    if not fielded:
        return named
    return [k for k in named if k in fielded] or [k for k in fielded if not kinded or k in kinded] or named
