"""The writes an action may end at by the kinds of thing it names: the kept writes to a named kind (by each
write's own kind), and the writes to the things inside a kind named as where a thing goes. The kept keys
are indexed once per planner by the kinds their words may name; only the APIs under a named kind are read."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.language.words import EVERY_WORDS
from apiatlas.planning.context import PlanContext
from apiatlas.planning.intent import destination_kinds, holds, kinds_a_key_may_name, named_kinds
from apiatlas.planning.kind_verbs import new_kinds
from apiatlas.planning.lookups import input_kind
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.write_choice import reads, says_verb
from apiatlas.snapshot import CatalogReader
from apiatlas.text import stem

_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)


class KindWrites:
    """The writes by the kinds an action names, for one planner (``most``: a thing holding more member
    writes than that names none)."""

    def __init__(self, snapshot: CatalogReader, cache: SnapshotCache, most: int) -> None:
        self.snapshot = snapshot
        self.cache = cache
        self.most = most
        self._keys_by_kind: dict[str, list[str]] | None = None  # kept keys by the kinds they may name
        self._writes_by_kind: dict[str, list[str]] = {}  # kept writes by their own kind, as kinds are named

    def of_kinds(self, ctx: PlanContext, may_write: bool) -> list[str]:
        """The kept writes to the kinds of thing an action names ("… with a usage quota"; else, for a verb
        in another script than the words above read, the kind of the first thing it names; else the kind
        of a new thing it says, "a box B"; else, for one pointing back naming no kind, ``_pointed``), by
        each write's own kind (``intent.own_kind``); none for a planner that may not write. A kind named as
        where a thing goes is not one it writes."""
        stated, words = [f.text for f in ctx.found], self.cache.vocabulary
        named = named_kinds(ctx.request, stated, words)
        kinds = named - destination_kinds(ctx.request, stated, words)
        if not kinds and not ctx.verb.isascii():  # «удали все заметки …»: the kind of the verb's object word,
            kinds = _object_kind(ctx) or {h for f in ctx.found[:1] if (h := f.hint) in words.kind_set}  # else
            # of the first thing named («удали под web-1»)
        kinds = kinds or new_kinds(ctx.request, ctx.found, words.kind_set)
        hinted = {f.hint for f in ctx.found} & words.kind_set  # "remove her from C": a channel C named
        if not named and not kinds and not hinted and ctx.pointed and may_write:
            return self._pointed(ctx.pointed, ctx.verb)
        if not kinds or not may_write:
            return []
        return sorted(k for kind in kinds for k in self._kind_writes(kind))

    def _kind_writes(self, kind: str) -> list[str]:
        """The kept writes whose own kind is ``kind``, once."""
        if kind not in self._writes_by_kind:
            self._writes_by_kind[kind] = [
                key
                for key in self._index().get(kind, ())
                if (api := self.cache.api(key)) is not None
                and not reads(api)
                and self.cache.own_kind(api) == kind
            ]
        return self._writes_by_kind[kind]

    def _pointed(self, key: str, verb: str) -> list[str]:
        """The writes saying ``verb`` of an action pointing back with no kind of its own: to the kind of the
        API ``key`` the action before it ends at (``intent.own_kind``), those at its path first ("Find the
        box B and delete it": ``DELETE /boxes/{name}``, not a part of the box's); else those taking that
        kind, or the one kind that API takes when its key names none (``_taking``)."""
        api = self.cache.api(key)
        kind = self.cache.own_kind(api) if api is not None else ""
        writes = [k for k in self._kind_writes(kind) if says_verb(self.cache.api(k), verb)] if kind else []
        path = key.partition(" ")[2]
        return [k for k in writes if k.partition(" ")[2] == path] or writes or self._taking(api, kind, verb)

    def _taking(self, api: Api | None, kind: str, verb: str) -> list[str]:
        """The writes saying ``verb`` that take a thing of ``kind``, or else of the one kind the API ``api``
        before takes ("Join the room R and say hi there": the post taking the ``room`` the join takes); none
        when it takes no such input or more than one."""
        if api is None:
            return []
        kinds = self.cache.vocabulary.kind_set
        taken = {kind} if kind else {k for p in api.params if (k := input_kind(api, p.name)) in kinds}
        if len(taken) != 1:
            return []
        kind = taken.pop()
        return [
            key
            for key, _ in self.cache.names
            if (write := self.cache.api(key)) is not None
            and not reads(write)
            and key != api.key
            and any(input_kind(write, p.name) == kind for p in write.params)
            and says_verb(write, verb)
        ]

    def of_members(self, ctx: PlanContext, may_write: bool) -> list[str]:
        """The kept writes to the things inside a kind the request names as where a thing goes ("Add
        x@example.com to the team core": ``teams.users.set``, the users of a team; ``intent.holds``), when
        it names no other kind as what it writes."""
        stated, vocabulary = [f.text for f in ctx.found], self.cache.vocabulary
        kinds = destination_kinds(ctx.request, stated, vocabulary)
        if not kinds or not may_write or named_kinds(ctx.request, stated, vocabulary) - kinds:
            return []  # a thing of a kind named as what is written ("copy the sheet … to folder F")
        out = sorted(
            key
            for kind in kinds
            for key in self._index().get(kind, ())
            if (api := self.cache.api(key)) is not None and not reads(api) and holds(api, kind, vocabulary)
        )
        return out if len(out) <= self.most else []  # a thing holding many kinds: none said

    def _index(self) -> dict[str, list[str]]:
        """The kept keys by the kinds their words may name (``intent.kinds_a_key_may_name``), once."""
        if self._keys_by_kind is None:
            self._keys_by_kind = {}
            for key in self.snapshot.all_api_keys():
                for kind in kinds_a_key_may_name(key, self.cache.vocabulary):
                    self._keys_by_kind.setdefault(kind, []).append(key)
        return self._keys_by_kind


def _object_kind(ctx: PlanContext) -> set[str]:
    """The kind the word right after an action's verb names (past "all", «все»), read across scripts
    (``PlanContext.foreign``): «удали все заметки доски X» deletes notes, not the board."""
    said = [w.lower() for w in _LETTERS.findall(ctx.request)]
    after = said[said.index(ctx.verb) + 1 :] if ctx.verb in said else []
    after = [w for w in after if w not in EVERY_WORDS]
    kind = ctx.foreign.get(stem(after[0]), "") if after else ""
    return {kind} if kind else set()
