"""The source-agnostic catalog model: business objects, APIs, session tables, domain types, edges."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import Diagnostic, Location

# where an API keeps what a model wrote for it at build time (code/enrichment.py), with its provenance
ENRICHMENT_KEY = "enrichment"


class SideEffect(StrEnum):
    """What a call does to the system it runs against."""

    READ = "read"
    WRITE = "write"
    DESTRUCTIVE = "destructive"


class Direction(StrEnum):
    IN = "in"
    OUT = "out"


class EdgeLevel(StrEnum):
    """Confidence of a dependency edge, strongest first (see ``passes/graph.py``)."""

    DECLARED = "declared"  # 1: stated in the docs or an overlay
    NAME_TYPE = "name_type"  # 2: same field name and same domain type
    ALIAS = "alias"  # 3: different name, same domain type, tied by a description or alias rule
    TYPE_ONLY = "type_only"  # 4: same specific (non-generic) domain type only
    CO_USAGE = "co_usage"  # 5: called one after the other in the SDK's own method bodies (code surfaces)


EDGE_LEVEL_RANK: dict[EdgeLevel, int] = {
    EdgeLevel.DECLARED: 1,
    EdgeLevel.NAME_TYPE: 2,
    EdgeLevel.ALIAS: 3,
    EdgeLevel.TYPE_ONLY: 4,
    EdgeLevel.CO_USAGE: 5,
}


class _Entity(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def content_hash(self) -> str:
        """A stable hash of the entity's content (sorted-key JSON, UTF-8)."""
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


class DomainType(_Entity):
    """A domain type such as ``DSIDENTIFIER``: base type, JSON Schema, meaning."""

    name: str
    base_type: str = ""  # SQL base type, e.g. "bigint", "numeric(19,4)"
    json_schema: dict[str, Any] = Field(default_factory=dict)  # e.g. {"type": "integer"}
    meaning: str = ""  # what a value of the type is, e.g. "ID of an entity"
    example: Any = None
    user_value: bool = False  # a value a person can say (a name, a date, an account number)
    generic: bool = True  # too common to link APIs by type alone (ids, money, flags)
    source: Location | None = None


# A loaded catalog may hold one Column, Param or ErrorCode instance for alike fields of many APIs and tables
# (``sources/bank_html/alike.py``), and the funnel one FunnelVerdict per outcome: set a field of one in place
# only to what its own values give (the types pass's JSON Schema), else it changes every API holding it;
# for one API's amendment assign a ``model_copy`` (as ``drift.py`` does).


class Column(_Entity):
    name: str
    domain_type: str = ""
    description: str = ""
    json_schema: dict[str, Any] = Field(default_factory=dict)  # filled by the types pass


class SessionTable(_Entity):
    """A table an API reads (in) or fills (out): a procedure's session table, a request or response body."""

    name: str
    direction: Direction
    description: str = ""
    columns: list[Column] = Field(default_factory=list)
    source: Location | None = None


# names of an HTTP call's credential parameter: the caller's session supplies it, no step or user value
CREDENTIAL_PARAMS = frozenset({"token", "access_token", "api_key", "apikey", "authorization"})


class Param(_Entity):
    """A scalar input parameter of an API."""

    name: str  # without the leading '@'
    domain_type: str = ""
    required: bool = False
    description: str = ""
    default: Any = None
    example: Any = None
    json_schema: dict[str, Any] = Field(default_factory=dict)  # filled by the types pass
    location: str = "arg"  # arg | path | query | header | body (HTTP sources)


class ErrorCode(_Entity):
    code: str
    description: str = ""


class Overlay(_Entity):
    """Operator hints merged over an API: when to use it, what is important, declared sources."""

    when_to_use: list[str] = Field(default_factory=list)
    important: list[str] = Field(default_factory=list)
    depends_on: list[DeclaredSource] = Field(default_factory=list)
    source: Location | None = None


class DeclaredSource(_Entity):
    """'Input field X of this API comes from field Y of API Z' as stated by docs or an overlay."""

    field: str  # consumer field: parameter name or input-table column name
    producer_api: str
    producer_field: str
    producer_table: str | None = None


class FunnelVerdict(_Entity):
    """Whether the funnel kept an API, and if not, at which stage it was dropped."""

    kept: bool = True
    dropped_at: str | None = None  # stage name
    reason: str | None = None


class ExecutorBinding(_Entity):
    """How the run time calls this API."""

    kind: str = "sql_procedure"  # sql_procedure | sql_function | http
    target: str = ""  # e.g. 'api."Orders_FindByID"' or 'GET /orders/{id}'


class Api(_Entity):
    key: str  # stable key: a procedure name ('Orders_FindByID'), 'GET /orders/{order_id}'
    object_key: str  # business object key; '' when the source names none
    title: str = ""  # short description (one line)
    description: str = ""  # detailed description
    params: list[Param] = Field(default_factory=list)
    input_tables: list[SessionTable] = Field(default_factory=list)
    output_tables: list[SessionTable] = Field(default_factory=list)
    errors: list[ErrorCode] = Field(default_factory=list)
    approved: bool | None = None  # architect visa "Ok"
    implemented: bool | None = None
    forbidden: bool | None = None
    side_effect: SideEffect = SideEffect.READ
    overlay: Overlay | None = None
    declared_sources: list[DeclaredSource] = Field(default_factory=list)
    funnel: FunnelVerdict = Field(default_factory=FunnelVerdict)
    entry_point: bool = False
    executor: ExecutorBinding = Field(default_factory=ExecutorBinding)
    source: Location | None = None
    extra: dict[str, Any] = Field(default_factory=dict)  # source-specific facts (operationId, ...)
    # why the source's contract cannot work (a table missing, truncated or without columns): such an
    # API is kept for navigation but not callable; None when the contract is complete
    incomplete_contract: str | None = None

    def written_texts(self) -> list[str]:
        """Search hints and usage scenarios a model wrote for this API at build time (``code/enrichment.py``;
        their provenance beside them in ``extra``), none without enrichment."""
        written = self.extra.get(ENRICHMENT_KEY)
        if not isinstance(written, dict):
            return []
        return [str(t) for t in [*written.get("search_hints", []), *written.get("scenarios", [])] if t]

    def annotations(self) -> dict[str, bool]:
        """MCP tool annotations implied by the side-effect class."""
        return {
            "readOnlyHint": self.side_effect is SideEffect.READ,
            "destructiveHint": self.side_effect is SideEffect.DESTRUCTIVE,
            # HTTP sources also mark PUT and DELETE idempotent (extra["idempotent"])
            "idempotentHint": self.side_effect is SideEffect.READ or self.extra.get("idempotent") is True,
            "openWorldHint": False,
        }


class BusinessObject(_Entity):
    key: str  # the source's key, e.g. an abbreviation ('Ord'), an OpenAPI tag, a schema
    name: str = ""  # e.g. 'Order'
    title: str = ""  # primary purpose, e.g. 'A customer's order'
    description: str = ""
    approved: bool | None = None
    api_keys: list[str] = Field(default_factory=list)  # as listed by the source
    source: Location | None = None


class Edge(_Entity):
    """An output field of ``producer`` can feed an input field of ``consumer``."""

    producer: str
    producer_table: str | None = None  # output table, None for scalar outputs
    producer_field: str
    consumer: str
    consumer_table: str | None = None  # input table, None for a scalar parameter
    consumer_field: str
    domain_type: str = ""
    level: EdgeLevel
    reason: str


class PlaybookSection(_Entity):
    """A part of a playbook's flow and the facts it needs: each fact is established by an executed call,
    named ``API.Column`` (a non-empty value of that output column) or ``API`` (a successful call); a fact
    with several sources is established by any of them."""

    name: str
    facts: dict[str, list[str]] = Field(default_factory=dict)  # fact name -> its sources


class PlaybookInvariant(_Entity):
    """A relation between facts of several calls: the sum of the ``total`` terms equals the sum of the
    ``parts`` terms (``API.Column`` summed over every row the session's calls returned; ``-`` subtracts);
    when both sides are known and differ, ``marker`` is missing from ``section``."""

    marker: str
    section: str
    parts: list[str]
    total: list[str]
    tolerance: float = 0.005


class Playbook(_Entity):
    """Procedural knowledge an expert wrote: when to use it (``trigger``), the steps (``body``, Markdown),
    the APIs it names, and the sections whose progress the server computes from the session's evidence."""

    name: str
    trigger: str
    body: str = ""
    roles: list[str] = Field(default_factory=list)  # empty: every role
    apis: list[str] = Field(default_factory=list)
    sections: list[PlaybookSection] = Field(default_factory=list)
    invariants: list[PlaybookInvariant] = Field(default_factory=list)
    source: str = ""  # the file it was read from, relative to the playbooks folder


class Catalog(BaseModel):
    """Everything a build knows; passes read and refine it in order."""

    model_config = ConfigDict(extra="forbid")

    source_kind: str = ""  # the SourceFormat.kind that read it; "": neutral build defaults
    objects: dict[str, BusinessObject] = Field(default_factory=dict)
    apis: dict[str, Api] = Field(default_factory=dict)
    types: dict[str, DomainType] = Field(default_factory=dict)
    edges: list[Edge] = Field(default_factory=list)
    playbooks: list[Playbook] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    # facts each pass records for the manifest and report (funnel counts, graph stats, ...)
    stats: dict[str, Any] = Field(default_factory=dict)
    # source files read: relative path -> sha256
    source_files: dict[str, str] = Field(default_factory=dict)

    def kept_apis(self) -> list[Api]:
        """APIs the funnel kept, in key order."""
        return [a for k, a in sorted(self.apis.items()) if a.funnel.kept]

    def add_diagnostic(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)


Overlay.model_rebuild()
