"""One shared "fields set" per model class across a catalog: the largest part of a big catalog's memory.

pydantic keeps, in every model instance, the set of the fields given when it was built
(``model_fields_set``). For the catalog's small entities that set is larger than the instance itself: an
``Edge``'s nine names take a 732-byte set against ~420 bytes of object and ``__dict__``; over the 3,158-API
gen-docs catalog the sets were 38 MB of ~160 MB. Nothing in apiatlas reads them (no ``exclude_unset``
dump), so every instance of a class can share one set holding all its field names: adding a name to it
(pydantic does when a field is assigned) then changes nothing, and ``model_dump`` is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import Any, TypeVar, get_args

from pydantic import BaseModel

Model = TypeVar("Model", bound=BaseModel)


@cache
def all_fields(cls: type[BaseModel]) -> set[str]:
    """The one fields set of ``cls``, all its field names (for ``model_construct(_fields_set=...)``)."""
    return set(cls.model_fields)


def model_of_fields(cls: type[Model], fields: dict[str, Any]) -> Model:
    """What ``cls.model_construct(_fields_set=all_fields(cls), **fields)`` builds, ~5x faster, for a class
    that allows no extra fields and has no private attributes, given every one of its fields in the order
    they are declared, already valid (``fields`` becomes the instance's ``__dict__``)."""
    model = object.__new__(cls)
    object.__setattr__(model, "__dict__", fields)
    object.__setattr__(model, "__pydantic_fields_set__", all_fields(cls))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


def adopt_shared_fields_set(model: BaseModel) -> bool:
    """Give ``model`` (not what it holds) its class's shared fields set; False when it had it already."""
    common = all_fields(type(model))
    if model.__pydantic_fields_set__ is common:
        return False
    object.__setattr__(model, "__pydantic_fields_set__", common)
    return True


def share_field_sets(root: BaseModel) -> int:
    """Give every model reachable from ``root`` (through fields, lists, tuples and dict values) its class's
    shared fields set; returns how many instances got it. Only the fields whose annotation can hold a
    model are followed, and a container whose first item is neither a model nor a container is taken to
    hold none (the catalog's lists and dicts are of one kind each: names, JSON values), which keeps the
    walk off the millions of strings and JSON Schema values. A model's followed fields are read where the
    model is met, and kept for later only when one is set (most parameters and columns: none)."""
    shared = int(adopt_shared_fields_set(root))
    stack: list[Any] = [[root.__dict__[name] for name in _model_holding_fields(type(root))]]
    setattr_ = object.__setattr__
    while stack:
        value = stack.pop()
        items = value.values() if isinstance(value, dict) else value  # a dict, list or tuple
        for item in items:
            kind, common, holding = _KINDS.get(type(item)) or _kind(type(item))  # by type: no ABCMeta
            if kind is _MODEL:
                if item.__pydantic_fields_set__ is not common:
                    setattr_(item, "__pydantic_fields_set__", common)
                    shared += 1
                if holding is not None:  # a model whose fields may hold a model
                    held = holding(item.__dict__)
                    if any(held):  # one is set (the JSON values of a catalog have their truth)
                        stack.append(held)
            elif kind is _CONTAINER and item:
                first = next(iter(item.values())) if isinstance(item, dict) else item[0]
                if (_KINDS.get(type(first)) or _kind(type(first)))[0] is not _OTHER:
                    stack.append(item)
    return shared


_MODEL, _CONTAINER, _OTHER = "model", "container", "other"
# by class: whether its instances are models, containers (list, tuple, dict) or neither, and for a model
# class its shared fields set and what reads, from an instance's ``__dict__``, the values of its fields that
# may hold a model (None: no such field), looked up once per item
_Holding = Callable[[dict[str, Any]], tuple[Any, ...]]
_KINDS: dict[type, tuple[str, set[str] | None, _Holding | None]] = {}


def _kind(cls: type) -> tuple[str, set[str] | None, _Holding | None]:
    """``_KINDS[cls]``, worked out and remembered."""
    known: tuple[str, set[str] | None, _Holding | None]
    if issubclass(cls, BaseModel):
        known = (_MODEL, all_fields(cls), _holding(_model_holding_fields(cls)))
    elif issubclass(cls, (list, tuple, dict)):
        known = (_CONTAINER, None, None)
    else:
        known = (_OTHER, None, None)
    _KINDS[cls] = known
    return known


def _holding(names: tuple[str, ...]) -> _Holding | None:
    """What reads the fields ``names`` of a ``__dict__`` as a tuple (None for no name)."""
    if not names:
        return None
    if len(names) == 1:
        (name,) = names
        return lambda fields: (fields[name],)
    return itemgetter(*names)


@cache
def _model_holding_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``cls`` whose annotation may hold a model (directly, in a container, or as ``Any``)."""
    return tuple(name for name, field in cls.model_fields.items() if _may_hold_model(field.annotation))


def _may_hold_model(annotation: Any) -> bool:
    if annotation is Any:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_may_hold_model(arg) for arg in get_args(annotation))
