"""Intermediate records the page parsers return: one per page, located, before cross-referencing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from multiprocessing.reduction import ForkingPickler
from operator import itemgetter
from typing import Any, TypeVar

from pydantic import BaseModel

from apiatlas.catalog.compact import adopt_shared_fields_set, all_fields
from apiatlas.catalog.model import Column, Direction, DomainType, ErrorCode, Param
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity


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


# alike entities seen so far: an entity's class and field values -> the first such entity (``share_texts``)
Alike = dict[tuple[Any, ...], BaseModel]
Entity = TypeVar("Entity", Param, Column, ErrorCode)
_SCALARS = frozenset({str, int, float, bool, type(None)})  # the value types an alike key holds


def share_texts(parsed: ParsedPage, texts: dict[str, str], alike: Alike | None = None) -> None:
    """Make the texts of the page's parameters, error codes and columns that equal one seen before (held
    in ``texts``) that same string object: field names, domain types and descriptions repeat across the
    pages of a catalog, and each page arrives from its parse worker with its own copies. Each of those
    entities also gets its class's shared fields set (``catalog/compact.py``) as it arrives, so the
    parse stage never holds one set per column. So do the names that pages repeat of each other (an API's
    key in its object's method list, a table's name and description on each API page linking it, the
    object an API page names) and the descriptions and visas pages share. The page's diagnostics get
    their shared sets too.

    With ``alike`` (the loader's, one for all pages) a parameter, column or error code equal to one seen
    before (same class, same field values and their types, no JSON Schema yet) is replaced by that one:
    a catalog repeats its fields across tables and APIs (the 31,580-API gen-docs: 234,025 columns, 3,495
    distinct), and every later stage holds, and every forked child copies, each instance. No pass changes
    one of them in place but by its content (the types pass gives alike fields one schema)."""
    page = parsed.page
    if isinstance(page, ApiPage):
        _share_attributes(page, ("key", "object_ref", "description", "visa"), texts)
        for link in page.tables:
            _share_attributes(link, ("name", "description"), texts)
        page.params = _share(page.params, ("name", "domain_type", "description"), texts, alike)
        page.errors = _share(page.errors, ("code", "description"), texts, alike)
    elif isinstance(page, TablePage):
        _share_attributes(page, ("name", "api", "description"), texts)
        page.columns = _share(page.columns, ("name", "domain_type", "description"), texts, alike)
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


def _share(
    entities: list[Entity], names: tuple[str, ...], texts: dict[str, str], alike: Alike | None
) -> list[Entity]:
    if alike is None:
        for entity in entities:
            _share_fields(entity, names, texts)
        return entities
    shared: list[Entity] = []
    for entity in entities:
        key = _alike_key(entity)
        first = alike.get(key) if key is not None else None
        if first is None:
            _share_fields(entity, names, texts)
            if key is not None:
                alike[key] = entity
            shared.append(entity)
        else:
            shared.append(first)  # type: ignore[arg-type]  # the key holds the class
    return shared


def _share_fields(entity: BaseModel, names: tuple[str, ...], texts: dict[str, str]) -> None:
    adopt_shared_fields_set(entity)
    fields = vars(entity)
    for name in names:
        text = fields[name]
        fields[name] = texts.setdefault(text, text)


def _alike_key(entity: BaseModel) -> tuple[Any, ...] | None:
    """The entity's class, field values and their types (``1``, ``1.0`` and ``True`` are equal, not alike);
    None when a value is not a scalar or a JSON Schema is set (that entity stays its own)."""
    fields = entity.__dict__
    if fields.get("json_schema"):
        return None
    cls = type(entity)
    values = _VALUES[cls](fields)  # a class's fields but its JSON Schema, in their order
    kinds = tuple(map(type, values))
    return (cls, values, kinds) if _SCALARS.issuperset(kinds) else None


_PAGE_ENTITIES = (Param, Column, ErrorCode)
# each entity class's field values but its JSON Schema, as one tuple (each class has two fields or more)
_VALUES: dict[type[BaseModel], Callable[[dict[str, Any]], tuple[Any, ...]]] = {
    cls: itemgetter(*(n for n in cls.model_fields if n != "json_schema")) for cls in _PAGE_ENTITIES
}


def send_entities_compactly() -> None:
    """In a parse worker: pickle the pages' parameters, columns and error codes as their field values,
    rebuilt by ``entity_from_fields`` in the loading process (pydantic's own pickling carries each
    instance's fields set, extras and private attributes, and rebuilds through ``__setstate__``:
    ~40% of the pickling and unpickling of a page). The page records go as their field values, rebuilt by
    their class (``_record_values``)."""
    for cls in _PAGE_ENTITIES:
        ForkingPickler.register(cls, _entity_fields)
    for record in _PAGE_RECORDS:  # a slotted dataclass pickles through Python-level state methods
        ForkingPickler.register(record, _record_values)


def _entity_fields(entity: BaseModel) -> tuple[Any, tuple[type[BaseModel], dict[str, Any]]]:
    return entity_from_fields, (type(entity), entity.__dict__)


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
