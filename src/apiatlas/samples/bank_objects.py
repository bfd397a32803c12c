"""The sample bank's business objects: names, purposes, Russian noun forms, attributes and API families.

The objects are described by domain (``bank_objects_retail``, ``_corporate``, ``_reference``,
``_operations``, with the words they share in ``bank_object_terms``); ``OBJECTS`` lists them in that
order, which numbers their error codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apiatlas.samples.bank_objects_corporate import CORPORATE_OBJECTS
from apiatlas.samples.bank_objects_operations import OPERATIONS_OBJECTS
from apiatlas.samples.bank_objects_reference import REFERENCE_OBJECTS
from apiatlas.samples.bank_objects_retail import RETAIL_OBJECTS
from apiatlas.samples.families import EntityProfile, Noun, ParentLink
from apiatlas.samples.spec import ColumnSpec


@dataclass(frozen=True)
class CuratedObject:
    """A hand-described business object and the API families it offers."""

    profile: EntityProfile
    title: str
    description: str
    families: tuple[str, ...]
    visa: str = "Ok"


def _obj(
    key: str,
    name: str,
    noun: Noun,
    title: str,
    description: str,
    attrs: tuple[ColumnSpec, ...],
    families: tuple[str, ...],
    *,
    number: ColumnSpec | None = None,
    parents: tuple[ParentLink, ...] = (),
    id_field: str = "",
    visa: str = "Ok",
    index: int = 0,
) -> CuratedObject:
    profile = EntityProfile(
        key=key,
        name=name,
        noun=noun,
        id_field=id_field or f"{name}ID",
        attributes=attrs,
        number=number,
        parents=parents,
        error_base=51000 + index * 100,
    )
    return CuratedObject(profile, title, description, families, visa)


_RAW: list[tuple[Any, ...]] = [*RETAIL_OBJECTS, *CORPORATE_OBJECTS, *REFERENCE_OBJECTS, *OPERATIONS_OBJECTS]

OBJECTS: tuple[CuratedObject, ...] = tuple(_obj(*raw[:7], index=i, **raw[7]) for i, raw in enumerate(_RAW))
