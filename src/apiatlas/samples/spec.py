"""The shape of a bank documentation set before it is rendered: objects, APIs, session tables, types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

TableDirection = Literal["in", "out"]

READ_VERBS: tuple[str, ...] = ("Find", "Get", "Check", "Brows")


@dataclass(frozen=True)
class DomainTypeSpec:
    """A row of ``Types/DomainTypes.htm``."""

    name: str
    base_type: str
    meaning: str


@dataclass(frozen=True)
class ColumnSpec:
    """A column of a session table."""

    name: str
    domain_type: str
    description: str


@dataclass(frozen=True)
class ParamSpec:
    """A scalar input parameter (written with a leading ``@`` on the page)."""

    name: str
    domain_type: str
    required: bool
    description: str


@dataclass(frozen=True)
class TableSpec:
    """A session table an API reads (``in``) or fills (``out``)."""

    name: str
    direction: TableDirection
    description: str
    columns: tuple[ColumnSpec, ...]


@dataclass(frozen=True)
class ErrorSpec:
    code: int
    description: str


@dataclass(frozen=True)
class ApiSpec:
    """One stored-procedure API with its funnel flags as the analysts wrote them."""

    name: str
    object_key: str
    title: str
    description: str
    params: tuple[ParamSpec, ...] = ()
    input_tables: tuple[TableSpec, ...] = ()
    output_tables: tuple[TableSpec, ...] = ()
    errors: tuple[ErrorSpec, ...] = ()
    visa: str = "Ok"
    implemented: bool = True
    forbidden: bool = False

    @property
    def verb(self) -> str:
        """The method part of the name: ``GetRest`` for ``API_Acc_GetRest``."""
        return self.name.split("_", 2)[-1]

    @property
    def is_read_named(self) -> bool:
        """Whether the name passes funnel stage 1 (a Find/Get/Check/Brows method)."""
        return self.verb.startswith(READ_VERBS)

    @property
    def kept(self) -> bool:
        """Whether all four funnel stages keep this API."""
        return self.is_read_named and self.visa == "Ok" and self.implemented and not self.forbidden

    def table_count(self) -> int:
        return len(self.input_tables) + len(self.output_tables)


@dataclass(frozen=True)
class ObjectSpec:
    """A business object page ``BO_<name>.htm``; its methods are the APIs naming it as object."""

    key: str  # abbreviation, e.g. 'DSec'
    name: str  # e.g. 'DealSecurity'
    title: str  # primary purpose
    description: str
    visa: str = "Ok"


@dataclass
class DocSet:
    """Everything one documentation folder holds, in page order."""

    types: list[DomainTypeSpec] = field(default_factory=list)
    objects: list[ObjectSpec] = field(default_factory=list)
    apis: list[ApiSpec] = field(default_factory=list)

    def table_count(self) -> int:
        return sum(a.table_count() for a in self.apis)

    def kept_count(self) -> int:
        return sum(1 for a in self.apis if a.kept)
