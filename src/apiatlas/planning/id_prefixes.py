"""The kind of thing an opaque id's own letter prefix names: ``bo_9s6XKzkNRiz8i3`` opens with the first
letters of one kind of the catalog (box) and of no other, ``card_…`` is a kind's whole name (card, though
"cardholder" opens with it too). The id says what it is, whatever noun is said
before it ("the next lid for bo_…": a box's)."""

from __future__ import annotations

import re
from collections.abc import Collection

from apiatlas.language.catalog import singular

_PREFIX = re.compile(r"([A-Za-z]{2,8})_")  # the letters before the id's first underscore


def prefix_kind(identifier: str, kinds: Collection[str], before: str = "") -> str:
    """The kind the id's letter prefix is (``card_…``: a card, though "cardholder" opens with it too), else
    the one kind of ``kinds`` whose name opens with the prefix, else ''; '' too when the text ``before`` the
    id ends in a kind (past "id"): the request calls it that ("the channel team_alpha2" is a channel's
    name, though "team" is a kind as well)."""
    match = _PREFIX.match(identifier)
    if match is None or _kind_last(before, kinds):
        return ""
    prefix = match.group(1).lower()
    if prefix in kinds:
        return prefix
    opened = [k for k in kinds if k.startswith(prefix)]
    return opened[0] if len(opened) == 1 else ""


def _kind_last(before: str, kinds: Collection[str]) -> bool:
    """Whether the last word of ``before`` (past "id") is one of ``kinds``, in the singular."""
    words = [w for w in re.findall(r"\w+", before.lower()) if w not in ("id", "ids", "identifier")]
    return bool(words) and singular(words[-1]) in kinds
