"""Intermediate records the page parsers return: one per page, located, before cross-referencing."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from multiprocessing.reduction import ForkingPickler
from typing import Any

from pydantic import BaseModel

from apiatlas.catalog.compact import adopt_shared_fields_set, all_fields
from apiatlas.catalog.model import Column, Direction, DomainType, ErrorCode, Param
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.sources.bank_html.alike import PAGE_ENTITIES, TEXT_FIELDS, Alike, Entity, sending, sent_entity


@dataclass(slots=True)
class TableLink:
    """A session table named on an API page, with the table page it links to (relative to the docs root)."""

    name: str
    direction: Direction
    description: str = ""
    target: str | None = None


@dataclass(slots=True)
class ObjectPage:
    """A parsed ``BObjects/BO_*.htm`` page."""

    file: str
    key: str
    name: str = ""
    title: str = ""
    description: str = ""
    visa: str | None = None
    methods: list[str] = field(default_factory=list)

    @property
    def location(self) -> Location:
        """Where this page is: its file (relative to the docs root) and its key."""
        return new_location(self.file, self.key)


@dataclass(slots=True)
class ApiPage:
    """A parsed ``BObjects/Services/API_*.htm`` page."""

    file: str
    key: str
    object_ref: str = ""  # the text of the 'Бизнес-объект' row
    object_target: str | None = None  # the BO page it links to, relative to the docs root
    title: str = ""
    description: str = ""
    visa: str | None = None
    implemented: bool | None = None
    forbidden: bool | None = None
    params: list[Param] = field(default_factory=list)
    tables: list[TableLink] = field(default_factory=list)
    errors: list[ErrorCode] = field(default_factory=list)

    @property
    def location(self) -> Location:
        """Where this page is: its file (relative to the docs root) and its key."""
        return new_location(self.file, self.key)


@dataclass(slots=True)
class TablePage:
    """A parsed ``BObjects/Services/Tables/T_*.htm`` page."""

    file: str
    name: str
    api: str = ""
    direction: Direction | None = None
    description: str = ""
    columns: list[Column] = field(default_factory=list)
    gap: str = ""  # why the columns cannot be trusted (truncated page, no 'Колонки' table); '' when whole

    @property
    def location(self) -> Location:
        """Where this page is: its file (relative to the docs root) and its name."""
        return new_location(self.file, self.name)


@dataclass(slots=True)
class TypesPage:
    """A parsed ``Types/DomainTypes.htm`` page."""

    file: str
    types: list[DomainType] = field(default_factory=list)


Page = ObjectPage | ApiPage | TablePage | TypesPage


@dataclass(slots=True)
class ParsedPage:
    """The outcome of reading one file: the record (None when skipped), its findings and its hash."""

    file: str
    sha256: str
    page: Page | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def finding(
    severity: Severity, code: ReasonCode, message: str, file: str, anchor: str | None = None
) -> Diagnostic:
    """A diagnostic located at ``file`` (relative to the docs root) and ``anchor``, with its class's shared
    fields set (and its location's)."""
    location = Location(file=file, anchor=anchor)
    adopt_shared_fields_set(location)
    diagnostic = Diagnostic(severity=severity, code=code, message=message, location=location)
    adopt_shared_fields_set(diagnostic)
    return diagnostic


def share_texts(parsed: ParsedPage, texts: dict[str, str], alike: Alike | None = None) -> None:
    """Make the texts of the page's parameters, error codes and columns that equal one seen before (held
    in ``texts``) that same string object: field names, domain types and descriptions repeat across the
    pages of a catalog, and each page arrives from its parse worker with its own copies. Each of those
    entities also gets its class's shared fields set (``catalog/compact.py``) as it arrives, so the
    parse stage never holds one set per column. So do the names that pages repeat of each other (an API's
    key in its object's method list, a table's name and description on each API page linking it, the
    object an API page names) and the descriptions and visas pages share. The page's diagnostics get
    their shared sets too.

    With ``alike`` (the loader's, one for all pages, holding ``texts``) a parameter, column or error code
    alike one met before is replaced by that one (``alike.py``)."""
    page = parsed.page
    if isinstance(page, ApiPage):
        _share_attributes(page, ("key", "object_ref", "description", "visa"), texts)
        for link in page.tables:
            _share_attributes(link, ("name", "description"), texts)
        page.params = _share(page.params, texts, alike)
        page.errors = _share(page.errors, texts, alike)
    elif isinstance(page, TablePage):
        _share_attributes(page, ("name", "api", "description"), texts)
        page.columns = _share(page.columns, texts, alike)
    elif isinstance(page, ObjectPage):
        _share_attributes(page, ("key", "visa"), texts)
        page.methods = [texts.setdefault(method, method) for method in page.methods]
    for diagnostic in parsed.diagnostics:  # pickled by the worker with sets of their own
        adopt_shared_fields_set(diagnostic)
        adopt_shared_fields_set(diagnostic.location)


def _share_attributes(
    record: ApiPage | TablePage | ObjectPage | TableLink, names: tuple[str, ...], texts: dict[str, str]
) -> None:
    for name in names:
        text = getattr(record, name)
        if text is not None:
            setattr(record, name, texts.setdefault(text, text))


def _share(entities: list[Entity], texts: dict[str, str], alike: Alike | None) -> list[Entity]:
    if alike is not None:
        return [alike.first(entity) for entity in entities]
    for entity in entities:
        adopt_shared_fields_set(entity)
        fields = vars(entity)
        for name in TEXT_FIELDS[type(entity)]:
            text = fields[name]
            fields[name] = texts.setdefault(text, text)
    return entities


def send_entities_compactly(token: int | None = None) -> None:
    """In a parse worker: pickle the pages' parameters, columns and error codes as their field values,
    rebuilt in the loading process, or looked up there among the alike ones of the load of ``token``
    (``alike.sent_entity``; pydantic's own pickling carries each instance's fields set, extras and private
    attributes, and rebuilds through ``__setstate__``: ~40% of the pickling and unpickling of a page).
    The page records go as their field values, rebuilt by their class (``_record_values``)."""
    sending(token)
    for cls in PAGE_ENTITIES:
        ForkingPickler.register(cls, sent_entity)
    for record in _PAGE_RECORDS:  # a slotted dataclass pickles through Python-level state methods
        ForkingPickler.register(record, _record_values)


_PAGE_RECORDS = (ParsedPage, ObjectPage, ApiPage, TablePage, TypesPage, TableLink)
_RECORD_FIELDS = {cls: tuple(f.name for f in fields(cls)) for cls in _PAGE_RECORDS}


def _record_values(record: Any) -> tuple[type[Any], tuple[Any, ...]]:
    cls = type(record)
    return cls, tuple([getattr(record, name) for name in _RECORD_FIELDS[cls]])


def entity_from_fields(cls: type[BaseModel], fields: dict[str, Any]) -> BaseModel:
    """A parsed entity (no extra fields, no private attributes) from its validated field values, with its
    class's shared fields set (``catalog/compact.py``)."""
    entity = _new(cls)
    _set(entity, "__dict__", fields)
    _set(entity, "__pydantic_fields_set__", all_fields(cls))
    _set(entity, "__pydantic_extra__", None)
    _set(entity, "__pydantic_private__", None)
    return entity


_new = object.__new__
_set = object.__setattr__  # bound once: ~0.2 µs an entity less than looking both up and calling through


# The page parsers build many parameters, columns and error codes (~7 a table page) from texts they read:
# str fields, a bool, None. Built like ``entity_from_fields`` (the same ``__dict__``, fields in the
# model's order, as validation gives for those values) they cost ~1 µs instead of ~4-7 µs of validation.


def new_column(name: str, domain_type: str, description: str) -> Column:
    """A column as ``Column(name=..., domain_type=..., description=...)`` builds it, without validation."""
    fields = {"name": name, "domain_type": domain_type, "description": description, "json_schema": {}}
    return entity_from_fields(Column, fields)  # type: ignore[return-value]


def new_param(
    name: str, domain_type: str, required: bool, description: str, default: str | None, example: str | None
) -> Param:
    """A parameter as ``Param(name=..., ...)`` builds it from these values, without validation."""
    fields = {
        "name": name,
        "domain_type": domain_type,
        "required": required,
        "description": description,
        "default": default,
        "example": example,
        "json_schema": {},
        "location": "arg",
    }
    return entity_from_fields(Param, fields)  # type: ignore[return-value]


def new_error_code(code: str, description: str) -> ErrorCode:
    """An error code as ``ErrorCode(code=..., description=...)`` builds it, without validation."""
    return entity_from_fields(ErrorCode, {"code": code, "description": description})  # type: ignore[return-value]


def new_location(file: str, anchor: str) -> Location:
    """``Location(file=file, anchor=anchor)`` without validation (the assembly makes one an API and table)."""
    return entity_from_fields(Location, {"file": file, "line": None, "anchor": anchor})  # type: ignore[return-value]
