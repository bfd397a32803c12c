"""The entry points' inputs, indexed once per snapshot: which entry points a request's stated values could
fill an input of. ``PlanContext.near_values`` binds only those (``binding.bind`` on each of the ~1,000
entry points of a large catalog was half of a plan's time); the ones left out could bind no stated value,
so the entry points found near the values are the same."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from apiatlas.catalog.model import Api
from apiatlas.planning import values as v
from apiatlas.planning.binding import Slot, fills, slots
from apiatlas.planning.lookups import item_kind, singular_kind


@dataclass
class EntryInputs:
    """Entry points by input (``by_slot``) and by the kind of thing a said name could fill an input of
    (``by_name_kind``: the input's own kind or the item its path names, ``lookups.names_fill``)."""

    by_slot: dict[Slot, list[str]] = field(default_factory=dict)
    by_name_kind: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, entries: Iterable[Api]) -> EntryInputs:
        index = cls()
        for api in entries:
            for slot in slots(api):
                index.by_slot.setdefault(slot, []).append(api.key)
                if slot.table is None:
                    for kind in {item_kind(api, slot.name), singular_kind(slot.name)} - {""}:
                        index.by_name_kind.setdefault(kind, []).append(api.key)
        return index

    def stating(self, found: list[v.ExtractedValue], known: bool) -> dict[str, set[int]] | None:
        """The entry points with an input some stated value may fill, each with those values (indexes
        into ``found``; a superset of what ``bind`` fills); None when values are known by name
        (``known``): any entry point may take one."""
        if known:
            return None
        taking: list[set[str]] = [set() for _ in found]  # each value: the entry points it may fill
        for slot, keys in self.by_slot.items():
            for i, f in enumerate(found):
                if fills(f, slot):
                    taking[i].update(keys)
        for i, f in enumerate(found):
            if f.kind == v.NAME:
                taking[i].update(self.by_name_kind.get(f.hint.lower(), ()))
        out: dict[str, set[int]] = {}
        for i, entries in enumerate(taking):
            for key in entries:
                out.setdefault(key, set()).add(i)
        return out
