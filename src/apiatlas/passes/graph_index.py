"""The graph pass's producer index: output fields by name and type, so a consumer field's candidates are
read from the few lists that can match it (never a scan of every producer), already in rank order."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


class ApiField(NamedTuple):
    """One output field of a producer or one input field of a consumer."""

    api: str
    object_key: str
    table: str | None  # None for a scalar parameter
    name: str
    domain_type: str
    description: str
    required: bool


Order = tuple[int, str, str, str]


class ProducerIndex:
    """Output fields by (name, type) and by specific type, each list in static rank order: producers
    needing fewer inputs first, then by API, table and field. A consumer's candidates come first from its
    own business object, then from the others (``named``, ``typed``)."""

    def __init__(
        self, fields: Iterable[ApiField], reach: dict[str, int], generic: Callable[[str], bool]
    ) -> None:
        self.reach = reach
        ordered = sorted(fields, key=self.order)
        self.by_name_type: dict[tuple[str, str], list[ApiField]] = defaultdict(list)
        self.by_name_type_object: dict[tuple[str, str, str], list[ApiField]] = defaultdict(list)
        self.by_type_object: dict[tuple[str, str], list[ApiField]] = defaultdict(list)
        # specific type -> field name -> fields (a type-only candidate never has the consumer's name)
        self.by_type_name: dict[str, dict[str, list[ApiField]]] = defaultdict(lambda: defaultdict(list))
        for f in ordered:
            name = f.name.casefold()
            self.by_name_type[(name, f.domain_type)].append(f)
            self.by_name_type_object[(name, f.domain_type, f.object_key)].append(f)
            if f.domain_type and not generic(f.domain_type):
                self.by_type_object[(f.domain_type, f.object_key)].append(f)
                self.by_type_name[f.domain_type][name].append(f)

    def order(self, f: ApiField) -> Order:
        return (self.reach[f.api], f.api, f.table or "", f.name)

    def named(self, name: str, domain_type: str, object_key: str) -> Iterator[ApiField]:
        """Fields called ``name`` (any case) of ``domain_type``: ``object_key``'s first, then the others'."""
        folded = name.casefold()
        yield from self.by_name_type_object.get((folded, domain_type, object_key), ())
        yield from (p for p in self.by_name_type.get((folded, domain_type), ()) if p.object_key != object_key)

    def count_named(self, name: str, domain_type: str) -> int:
        return len(self.by_name_type.get((name.casefold(), domain_type), ()))

    def count_typed(self, domain_type: str, *, but_not: str) -> int:
        own = but_not.casefold()
        return sum(len(f) for name, f in self.by_type_name.get(domain_type, {}).items() if name != own)

    def typed(self, domain_type: str, object_key: str, *, but_not: str) -> Iterator[ApiField]:
        """Fields of the specific ``domain_type`` not called ``but_not``: own object's first, then others."""
        own = but_not.casefold()
        yield from (
            p for p in self.by_type_object.get((domain_type, object_key), ()) if p.name.casefold() != own
        )
        others = [fields for name, fields in self.by_type_name.get(domain_type, {}).items() if name != own]
        yield from (p for p in heapq.merge(*others, key=self.order) if p.object_key != object_key)


def with_reason(fields: Iterable[ApiField], reason: str) -> Iterator[tuple[ApiField, str]]:
    return ((f, reason) for f in fields)


def first_of_each(
    streams: list[Iterator[tuple[ApiField, str]]], key: Callable[[tuple[ApiField, str]], Any]
) -> Iterator[tuple[ApiField, str]]:
    """The streams (each in ``key`` order) merged in ``key`` order, each field once: with the reason of the
    first stream that offers it."""
    seen: set[tuple[str, str | None, str]] = set()
    for item in heapq.merge(*streams, key=key):
        field = item[0]
        ident = (field.api, field.table, field.name)
        if ident not in seen:
            seen.add(ident)
            yield item
