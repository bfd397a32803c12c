"""Alike parameters, columns and error codes of a load as one instance each.

A catalog repeats its fields across tables and APIs: the 31,580-API gen-docs hold 234,025 columns of 3,495
distinct values, 83,837 parameters of 3,005, 44,938 error codes of 22,120. Every later stage holds each
instance, and every child forked beside the compiler copies the memory pages of those it reads (reading an
object writes its reference count). So a load keeps the first entity of each class and values (``Alike``)
and gives every page that one.

Entities a parse worker sends are looked up by their values as they are unpickled (``received_entity``,
within ``receiving``): a duplicate is never built. Each carries its load's token, so loads on two threads
at once look up among their own entities only (the pools' threads unpickle them, not the loads'). Entities
parsed in the loading process itself are looked up by ``Alike.first``. Either way the first one gets its
class's shared fields set and its texts shared (``texts``), as ``share_texts`` gives every page's texts.

Sharing is safe because no pass changes a field in place but by its content: the types pass gives alike
fields one JSON Schema (``passes/types.py``); a source that merges or amends fields copies them first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from operator import itemgetter
from typing import Any, TypeVar

from pydantic import BaseModel

from apiatlas.catalog.compact import adopt_shared_fields_set, model_of_fields
from apiatlas.catalog.model import Column, ErrorCode, Param

Entity = TypeVar("Entity", Param, Column, ErrorCode)
PAGE_ENTITIES = (Param, Column, ErrorCode)
# the texts of each class shared among pages (names, domain types, descriptions)
TEXT_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {
    Param: ("name", "domain_type", "description"),
    Column: ("name", "domain_type", "description"),
    ErrorCode: ("code", "description"),
}
_SCHEMA = "json_schema"  # filled by the types pass; empty in a parsed page
_SCALARS = frozenset({str, int, float, bool, type(None)})  # the value types an alike key holds
# each class's field values but its JSON Schema, as one tuple (each class has two such fields or more)
_VALUES: dict[type[BaseModel], Callable[[dict[str, Any]], tuple[Any, ...]]] = {
    cls: itemgetter(*(n for n in cls.model_fields if n != _SCHEMA)) for cls in PAGE_ENTITIES
}
_TOKENS = count(1)  # each load's own (``Alike.token``)


@dataclass(slots=True)
class Alike:
    """The first entity of each class and values met in a load (by class, values and the values' types:
    ``1``, ``1.0`` and ``True`` are equal, not alike), the ids of those, and the load's shared texts."""

    texts: dict[str, str] = field(default_factory=dict)
    by_values: dict[tuple[Any, ...], BaseModel] = field(default_factory=dict)
    ids: set[int] = field(default_factory=set)
    token: int = field(default_factory=lambda: next(_TOKENS))  # what its parse workers send with each entity

    def first(self, entity: Entity) -> Entity:
        """The alike entity met first (``entity`` itself when it is), its texts shared."""
        if id(entity) in self.ids:  # received that way, or met before
            return entity
        fields = entity.__dict__
        cls = type(entity)
        key = None if fields.get(_SCHEMA) else _key(cls, _VALUES[cls](fields))
        found = self.by_values.get(key) if key is not None else None
        if found is not None:
            return found  # type: ignore[return-value]  # the key holds the class
        self._keep(key, entity)
        return entity

    def received(self, cls: type[BaseModel], values: tuple[Any, ...]) -> BaseModel:
        """The entity of ``cls`` with these field values (all but the JSON Schema, empty), built only when
        none alike was met before."""
        key = _key(cls, values)
        found = self.by_values.get(key) if key is not None else None
        if found is None:
            found = entity_of_values(cls, values)
            self._keep(key, found)
        return found

    def _keep(self, key: tuple[Any, ...] | None, entity: BaseModel) -> None:
        adopt_shared_fields_set(entity)
        fields, texts = entity.__dict__, self.texts
        for name in TEXT_FIELDS[type(entity)]:
            text = fields[name]
            fields[name] = texts.setdefault(text, text)
        if key is not None:
            self.by_values[key] = entity
            self.ids.add(id(entity))


def _key(cls: type[BaseModel], values: tuple[Any, ...]) -> tuple[Any, ...] | None:
    kinds = tuple(map(type, values))
    return (cls, values, kinds) if _SCALARS.issuperset(kinds) else None


def entity_of_values(cls: type[BaseModel], values: tuple[Any, ...]) -> BaseModel:
    """The entity of ``cls`` with these values of its fields but the JSON Schema (an empty one), in order."""
    given = iter(values)
    return model_of_fields(cls, {name: {} if name == _SCHEMA else next(given) for name in cls.model_fields})


# where entities unpickled from the parse workers are looked up: the ``Alike`` of each load receiving pages
# now, by its token (the pools' result threads unpickle them); a token not there: each built as sent
_receiving: dict[int, Alike] = {}
_sending: int | None = None  # in a parse worker: the token of the load it parses for (``sending``)


@contextmanager
def receiving(alike: Alike) -> Iterator[Alike]:
    """Entities sent by parse workers for ``alike.token`` (``sent_entity``) are looked up in ``alike``
    while within."""
    _receiving[alike.token] = alike
    try:
        yield alike
    finally:
        del _receiving[alike.token]


def sending(token: int | None) -> None:
    """In a parse worker: the token of the load it parses for, sent with each entity (``sent_entity``)."""
    global _sending
    _sending = token


def sent_entity(entity: BaseModel) -> tuple[Any, tuple[Any, ...]]:
    """In a parse worker: how an entity pickles (``ForkingPickler.register``): its load's token and its
    values but its JSON Schema when that is empty (``received_entity``), else its fields
    (``model_of_fields``)."""
    fields = entity.__dict__
    cls = type(entity)
    if fields.get(_SCHEMA):
        return model_of_fields, (cls, fields)
    return received_entity, (_sending, cls, _VALUES[cls](fields))


def received_entity(token: int | None, cls: type[BaseModel], values: tuple[Any, ...]) -> BaseModel:
    """In the loading process: the entity a worker sent (``sent_entity``), the alike one while its load
    receives."""
    alike = _receiving.get(token) if token is not None else None
    return alike.received(cls, values) if alike is not None else entity_of_values(cls, values)
