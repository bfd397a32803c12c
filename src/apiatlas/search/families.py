"""The operations on one resource (a family), read off the catalog's keys: a collection's path and its
item's (``GET /v1/things``, ``POST /v1/things``, ``GET /v1/things/{id}``, ``DELETE /v1/things/{id}`` …),
or the RPC methods of one namespace (``GET /things.list``, ``GET /things.info``, ``POST /things.archive``).

Their cards say the same words (the resource's), and what tells them apart in the fused score is noise
of the card: the list's long description of paging parameters weighs its words down in bm25, a write's
title sits closer to the request's vector by a hundredth. What the request orders decides instead: within
a family, the members doing the kind of action the request asks for (a read when it orders no change)
take the family's best places, in their own order; the others follow. Nothing but the
keys' paths and methods is read: no word of any catalog's own."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from apiatlas.catalog.actions import HTTP_METHODS, method_and_segments


def family_of(key: str) -> str:
    """The collection path an HTTP operation acts on or on an item of (``GET /v1/things/{id}``:
    ``/v1/things``), or the namespace of an RPC method's path (``GET /things.list``, ``POST
    /things.archive``: ``/things``); "" for a key that is no ``METHOD /path``, or a path that is only
    parameters."""
    method, segments = method_and_segments(key)
    if method not in HTTP_METHODS or not key.partition(" ")[2].startswith("/"):
        return ""
    if segments and segments[-1].startswith("{"):
        segments = segments[:-1]
    elif segments and "." in segments[-1]:  # an RPC method: its namespace
        segments[-1] = segments[-1].rsplit(".", 1)[0]
    if not segments or segments[-1].startswith("{"):
        return ""
    return "/" + "/".join(segments)


class Families:
    """The families of a catalog's operations (``family_of`` each key, read once per key)."""

    def __init__(self) -> None:
        self._family: dict[str, str] = {}

    def family(self, key: str) -> str:
        found = self._family.get(key)
        if found is None:
            found = self._family[key] = family_of(key)
        return found

    def order(self, fused: dict[str, float], kind_of: Mapping[str, str], kinds: Iterable[str]) -> None:
        """Within each family of two candidates or more, the members doing one of ``kinds``
        (``kind_of``: each key's kind of action) take the family's best places, each kind keeping its own
        order; the scores the family holds are handed out again in that order (no family gains a place
        or a score over another's operations)."""
        wanted = set(kinds)
        if not wanted:
            return
        groups: dict[str, list[str]] = defaultdict(list)
        for key in fused:
            family = self.family(key)
            if family:
                groups[family].append(key)
        for members in groups.values():
            if len(members) < 2:
                continue
            ranked = sorted(members, key=lambda k: (-fused[k], k))
            first = [k for k in ranked if kind_of.get(k, "") in wanted]
            if not first or len(first) == len(ranked):
                continue
            scores = [fused[k] for k in ranked]
            for key, score in zip([*first, *(k for k in ranked if k not in first)], scores, strict=True):
                fused[key] = score
