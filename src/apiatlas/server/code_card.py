"""The code part of an entity card (a type or member of an SDK): what ``describe_api`` and ``read_source``
show besides the title and description, read from the API's ``extra["member"]`` record."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from apiatlas.catalog.model import ENRICHMENT_KEY, Api
from apiatlas.server.results import Compact


class SourceSpanInfo(Compact):
    file: str
    start_line: int
    end_line: int


class BodyFactsInfo(Compact):
    """What the body does, as ``Type.Member`` names (from IL or from the syntax tree)."""

    calls: list[str] = Field(default_factory=list)
    creates: list[str] = Field(default_factory=list)
    throws: list[str] = Field(default_factory=list)


class WrittenInfo(Compact):
    """What a model wrote for the entity at build time (``compile --llm``): not documentation."""

    scenarios: list[str] = Field(default_factory=list)
    search_hints: list[str] = Field(default_factory=list)
    written_by: str = ""  # the model
    prompt_version: str = ""


class OverloadInfo(Compact):
    key: str
    signature: str = ""


class CodeCard(Compact):
    """A .NET entity: its kind, C# signature, stable alias, modifiers, heritage, docs, facts and overloads."""

    kind: str
    signature: str = ""
    alias: str = ""  # type::kind::sha1(documentation ID): resolves like the key
    declaring_type: str = ""
    namespace: str = ""
    visibility: str = "public"
    static: bool = False
    abstract: bool = False
    generic_params: list[str] = Field(default_factory=list)
    base_type: str = ""
    interfaces: list[str] = Field(default_factory=list)
    returns: str = ""
    returns_doc: str = ""
    exceptions: dict[str, str] = Field(default_factory=dict)
    example: str = ""
    facts: BodyFactsInfo | None = None
    source: SourceSpanInfo | None = None
    assembly: str = ""
    overloads: list[OverloadInfo] = Field(default_factory=list)  # every overload, this one included
    model_written: WrittenInfo | None = None  # enrichment, with its provenance


def member_record(api: Api) -> dict[str, Any] | None:
    record = api.extra.get("member")
    return record if isinstance(record, dict) else None


def code_card(api: Api, overloads: list[OverloadInfo]) -> CodeCard | None:
    """The card of ``api`` when it is a code entity, else None."""
    record = member_record(api)
    if record is None:
        return None
    docs = record.get("docs") or {}
    facts = record.get("facts") or {}
    span = record.get("source")
    return CodeCard(
        kind=str(record.get("kind", "")),
        signature=str(record.get("signature", "")),
        alias=str(api.extra.get("alias", "")),
        declaring_type=str(record.get("declaring_type", "")),
        namespace=str(record.get("namespace", "")),
        visibility=str(record.get("visibility", "public")),
        static=bool(record.get("static", False)),
        abstract=bool(record.get("abstract", False)),
        generic_params=list(record.get("generic_params", [])),
        base_type=str(record.get("base_type", "")),
        interfaces=list(record.get("interfaces", [])),
        returns=str(record.get("returns_display") or record.get("returns", "")),
        returns_doc=str(docs.get("returns") or docs.get("value") or ""),
        exceptions=dict(docs.get("exceptions", {})),
        example=str(docs.get("example", ""))[:2000],
        facts=BodyFactsInfo(**facts) if facts else None,
        source=SourceSpanInfo(file=span["file"], start_line=span["start_line"], end_line=span["end_line"])
        if isinstance(span, dict)
        else None,
        assembly=str(record.get("assembly", "")),
        overloads=overloads,
        model_written=_written(api),
    )


def _written(api: Api) -> WrittenInfo | None:
    written = api.extra.get(ENRICHMENT_KEY)
    if not isinstance(written, dict):
        return None
    provenance = written.get("provenance") or {}
    return WrittenInfo(
        scenarios=list(written.get("scenarios", [])),
        search_hints=list(written.get("search_hints", [])),
        written_by=str(provenance.get("model", "")),
        prompt_version=str(provenance.get("prompt_version", "")),
    )
