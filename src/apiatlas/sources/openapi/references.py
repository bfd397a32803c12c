"""References to other kinds of thing below the flattened depth.

A response nests deeper than ``MAX_FLAT_DEPTH`` keeps, yet a field down there may name another item
of the catalog (``spec.body.parts[].source.rackRef.name``: a rack's name; ``…mount.shelfName``: a
shelf's). The kinds are the catalog's own: the literal path segment before a ``{param}`` one
(``/racks/{name}``: rack). Below the depth, flattening keeps only such keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise

from apiatlas.language.catalog import singular

MAX_REFERENCE_DEPTH = 6  # levels below the flattened depth searched for references
KEY_WORDS = ("name", "id")  # the last word of a field that names one item
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_PART = re.compile(r"\[\]|\.")


def path_kinds(paths: Iterable[str]) -> dict[str, frozenset[str]]:
    """The kinds a spec's paths name one item of, each with the key words its items are read by:
    ``/racks/{name}`` → rack: name; ``/cards/{card_id}`` → card: id; a parameter naming no key word
    (``/customers/{customer}``) is read as an id. Kinds of three letters or more."""
    kinds: dict[str, set[str]] = {}
    for path in paths:
        segments = [s for s in path.strip("/").split("/") if s]
        for before, at in pairwise(segments):
            if at.startswith("{") and not before.startswith("{") and "." not in before:
                kind = singular(before)
                if len(kind) >= 3:
                    said = words(at.strip("{}"))
                    kinds.setdefault(kind, set()).add(said[-1] if said and said[-1] in KEY_WORDS else "id")
    return {k: frozenset(v) for k, v in kinds.items()}


def words(name: str) -> list[str]:
    """``rackKeyRef`` → rack, key, ref; ``shelf_name`` → shelf, name."""
    return [w.lower() for w in _WORD.findall(name)]


def leading_kind(name: str, kinds: Mapping[str, frozenset[str]]) -> str:
    """The longest kind a field name's leading words join to (``configShelfRef`` → configshelf when that
    is a kind, else ''); a name of one word is that word's singular."""
    parts = words(name)
    found = ""
    for end in range(1, len(parts) + 1):
        joined = "".join(parts[:end])
        if singular(joined) in kinds:
            found = singular(joined)
    return found


def names_kind(path: str, kinds: Mapping[str, frozenset[str]]) -> bool:
    """Whether an output field is a key of a kind of the catalog, by the key word its items are read by:
    its words before that key word are the kind (``shelfName``, not ``accountHolderName``), or its holder's
    leading words are (``rackRef.name``, ``rack.id``, ``rack.spareRackName``)."""
    parts = [p for p in _PART.split(path) if p]
    if not parts or not kinds:
        return False
    leaf = words(parts[-1])
    if not leaf or leaf[-1] not in KEY_WORDS:
        return False
    own = singular("".join(leaf[:-1])) if len(leaf) > 1 else ""
    if own in kinds and leaf[-1] in kinds[own]:
        return True
    holder = leading_kind(parts[-2], kinds) if len(parts) > 1 else ""
    return bool(holder) and leaf[-1] in kinds[holder]


def kept_below(path: str, kinds: Mapping[str, frozenset[str]]) -> bool:
    """Whether a field below the flattened depth is kept: a key of a kind (``names_kind``), or, inside a
    referenced schema flattened on its own, a bare key whose holder is not known yet (``name``: decided
    again once the reference's field name is before it)."""
    parts = [p for p in _PART.split(path) if p]
    if len(parts) <= 1:
        leaf = words(parts[0]) if parts else []
        return bool(leaf) and leaf[-1] in KEY_WORDS
    return names_kind(path, kinds)
