"""Verbs a catalog says with a flag of its things: a boolean field an update of an item writes
(``spec.halt`` of ``PATCH /machines/{name}``) names what a request orders with that word ("Halt the
machine m-1"): the change is the field set, done by the item's update."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from apiatlas.catalog.actions import ends_in_parameter
from apiatlas.catalog.model import Api
from apiatlas.language.words import PLAIN_WORDS

_UPDATES = ("PATCH ", "PUT ")
_ONE_WORD = re.compile(r"[a-z]{4,}")
# a participle or an adjective names a state, not an order ("paused", "ready", "visible")
_STATE_ENDINGS = ("ed", "ing", "able", "ible", "ive", "al", "ous", "y")


def item_updates(keys: Iterable[str]) -> list[str]:
    """The keys updating one item: a ``PATCH`` or ``PUT`` whose path ends in the item's parameter."""
    return [k for k in keys if k.startswith(_UPDATES) and ends_in_parameter(k)]


def flag_verbs(updates: Iterable[Api | None], kinds: Collection[str]) -> frozenset[str]:
    """The words of the boolean fields the item ``updates`` write (their results' fields, the item as
    written): a field's last part of one lower-case word, no participle or adjective, no plain word, and
    no part of a kind's name (``storagepool`` keeps "storage" a noun)."""
    out: set[str] = set()
    for api in updates:
        if api is None:
            continue
        for table in api.output_tables:
            for column in table.columns:
                word = column.name.rsplit(".", 1)[-1]
                if column.json_schema.get("type") == "boolean" and _ONE_WORD.fullmatch(word):
                    out.add(word)
    return frozenset(
        w
        for w in out
        if not w.endswith(_STATE_ENDINGS) and w not in PLAIN_WORDS and not any(w in k for k in kinds)
    )
