"""References to other kinds of thing below the flattened depth.

A response nests deeper than ``MAX_FLAT_DEPTH`` keeps, yet a field down there may name another item
of the catalog (``spec.body.parts[].source.rackRef.name``: a rack's name; ``…mount.shelfName``: a
shelf's). The kinds are the catalog's own: the literal path segment before a ``{param}`` one
(``/racks/{name}``: rack). Below the depth, flattening keeps only such keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from apiatlas.language.catalog import singular

MAX_REFERENCE_DEPTH = 6  # levels below the flattened depth searched for references
KEY_WORDS = ("name", "id")  # the last word of a field that names one item
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_PART = re.compile(r"\[\]|\.")


def path_kinds(paths: Iterable[str]) -> frozenset[str]:
    """The kinds a spec's paths name one item of: ``/racks/{name}`` → rack (three letters or more)."""
    kinds: set[str] = set()
    for path in paths:
        segments = [s for s in path.strip("/").split("/") if s]
        for before, at in pairwise(segments):
            if at.startswith("{") and not before.startswith("{") and "." not in before:
                kind = singular(before)
                if len(kind) >= 3:
                    kinds.add(kind)
    return frozenset(kinds)


def words(name: str) -> list[str]:
    """``rackKeyRef`` → rack, key, ref; ``shelf_name`` → shelf, name."""
    return [w.lower() for w in _WORD.findall(name)]


def leading_kind(name: str, kinds: frozenset[str]) -> str:
    """The longest kind a field name's leading words join to (``configShelfRef`` → configshelf when that
    is a kind, else ''); a name of one word is that word's singular."""
    parts = words(name)
    found = ""
    for end in range(1, len(parts) + 1):
        joined = "".join(parts[:end])
        if singular(joined) in kinds:
            found = singular(joined)
    return found


def names_kind(path: str, kinds: frozenset[str]) -> bool:
    """Whether an output field is a key of a kind of the catalog: its last word is a key word and its
    own leading words (``shelfName``) or its holder's (``rackRef.name``, ``rack.id``, ``rack.rackName``)
    name a kind."""
    parts = [p for p in _PART.split(path) if p]
    if not parts or not kinds:
        return False
    leaf = words(parts[-1])
    if not leaf or leaf[-1] not in KEY_WORDS:
        return False
    if len(leaf) > 1 and leading_kind(parts[-1], kinds):
        return True
    return len(parts) > 1 and bool(leading_kind(parts[-2], kinds))


def kept_below(path: str, kinds: frozenset[str]) -> bool:
    """Whether a field below the flattened depth is kept: a key of a kind (``names_kind``), or, inside a
    referenced schema flattened on its own, a bare key whose holder is not known yet (``name``: decided
    again once the reference's field name is before it)."""
    parts = [p for p in _PART.split(path) if p]
    if len(parts) <= 1:
        leaf = words(parts[0]) if parts else []
        return bool(leaf) and leaf[-1] in KEY_WORDS
    return names_kind(path, kinds)
