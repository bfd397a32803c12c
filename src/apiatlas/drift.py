"""Merges documentation with a database catalog of the same system and reports where they disagree (drift).

Match by name (the documented key is the routine name, with or without its schema), take meaning from
the documentation (titles, descriptions, tables, errors) and signatures from the catalog (which
arguments exist, their types, whether they are required, how to call the routine). Every
disagreement becomes one ``DriftCase`` with the decision taken for it.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from apiatlas.catalog.model import Api, Catalog, Param, SideEffect

_ORDER = [SideEffect.READ, SideEffect.WRITE, SideEffect.DESTRUCTIVE]


class DriftKind(StrEnum):
    MISSING_IN_DATABASE = "missing_in_database"  # documented, no such routine
    UNDOCUMENTED = "undocumented"  # routine present, not documented
    PARAM_MISSING_IN_DATABASE = "param_missing_in_database"
    PARAM_UNDOCUMENTED = "param_undocumented"
    PARAM_TYPE_MISMATCH = "param_type_mismatch"
    PARAM_REQUIRED_MISMATCH = "param_required_mismatch"


class DriftCase(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: DriftKind
    api: str
    param: str | None = None
    documented: str | None = None
    database: str | None = None
    decision: str


class DriftReport(BaseModel):
    docs_source: str = ""
    catalog_source: str = ""
    documented_apis: int = 0
    database_routines: int = 0
    matched: int = 0
    cases: list[DriftCase] = []

    def by_kind(self) -> dict[str, int]:
        counts: dict[str, int] = {k.value: 0 for k in DriftKind}
        for case in self.cases:
            counts[case.kind.value] += 1
        return counts


def type_family(sql_type: str) -> str:
    """A comparable family of an SQL type (``varchar(40)`` and ``character varying`` are both 'string')."""
    text = re.sub(r"\(.*\)", "", sql_type.strip().lower()).strip()
    text = re.sub(r"\s+", " ", text)
    families = {
        "integer": {"int", "integer", "bigint", "smallint", "tinyint", "int2", "int4", "int8", "serial",
                    "bigserial"},
        "numeric": {"numeric", "decimal", "money", "smallmoney"},
        "float": {"real", "float", "double precision", "float4", "float8"},
        "string": {"char", "varchar", "nvarchar", "nchar", "text", "ntext", "character", "character varying",
                   "bpchar", "sysname", "citext"},
        "date": {"date"},
        "timestamp": {"datetime", "datetime2", "smalldatetime", "timestamp", "timestamp without time zone",
                      "timestamp with time zone", "timestamptz", "datetimeoffset"},
        "boolean": {"boolean", "bool", "bit"},
        "uuid": {"uuid", "uniqueidentifier"},
    }  # fmt: skip
    for family, names in families.items():
        if text in names:
            return family
    return text


def _param_key(name: str) -> str:
    lowered = name.lower().lstrip("@")
    return lowered.removeprefix("p_")


def _routine_index(db: Catalog) -> dict[str, str]:
    """lower-case routine name (bare and schema-qualified) -> catalog key."""
    index: dict[str, str] = {}
    for key in sorted(db.apis):
        base = key.split("(")[0]
        index.setdefault(base.lower(), key)
        index.setdefault(base.split(".")[-1].lower(), key)
    return index


def merge_with_catalog(docs: Catalog, db: Catalog) -> tuple[Catalog, DriftReport]:
    """The merged catalog (docs' meaning, catalog's signatures) and the drift report."""
    merged = docs.model_copy(deep=True)
    report = DriftReport(documented_apis=len(docs.apis), database_routines=len(db.apis))
    index = _routine_index(db)
    used: set[str] = set()
    for key in sorted(docs.apis):
        doc_api = docs.apis[key]
        db_key = index.get(key.lower())
        if db_key is None:
            report.cases.append(DriftCase(
                kind=DriftKind.MISSING_IN_DATABASE, api=key,
                decision="kept from the documentation but marked not implemented, so the funnel drops it "
                         "and it is never offered for calling"))  # fmt: skip
            merged.apis[key].implemented = False
            continue
        used.add(db_key)
        report.matched += 1
        merged.apis[key] = _merge_api(doc_api, db.apis[db_key], docs, report)
    for db_key in sorted(set(db.apis) - used):
        api = db.apis[db_key].model_copy(deep=True)
        api.approved = None
        report.cases.append(DriftCase(
            kind=DriftKind.UNDOCUMENTED, api=db_key, database=str(api.extra.get("signature", db_key)),
            decision="added from the catalog with its signature only and marked unapproved, so the "
                     "funnel drops it until it is documented or approved"))  # fmt: skip
        merged.apis[db_key] = api
        obj = merged.objects.get(api.object_key)
        if obj is None and api.object_key in db.objects:
            merged.objects[api.object_key] = db.objects[api.object_key].model_copy(deep=True)
    for name, domain_type in db.types.items():
        merged.types.setdefault(name, domain_type)
    merged.source_files.update({f"@catalog/{k}": v for k, v in db.source_files.items()})
    return merged, report


def _merge_api(doc_api: Api, db_api: Api, docs: Catalog, report: DriftReport) -> Api:
    merged = doc_api.model_copy(deep=True)
    doc_params = {_param_key(p.name): p for p in doc_api.params}
    db_params = {_param_key(p.name): p for p in db_api.params}
    params: list[Param] = []
    renamed: dict[str, str] = {}
    for norm, db_param in db_params.items():
        doc_param = doc_params.get(norm)
        if doc_param is None:
            report.cases.append(DriftCase(
                kind=DriftKind.PARAM_UNDOCUMENTED, api=doc_api.key, param=db_param.name,
                database=f"{db_param.domain_type}{'' if db_param.required else ' (optional)'}",
                decision="added from the database without a description"))  # fmt: skip
            params.append(db_param.model_copy(deep=True))
            continue
        params.append(_merge_param(doc_api.key, doc_param, db_param, docs, report))
        renamed[db_param.name] = doc_param.name
    for norm, doc_param in doc_params.items():
        if norm not in db_params:
            report.cases.append(DriftCase(
                kind=DriftKind.PARAM_MISSING_IN_DATABASE, api=doc_api.key, param=doc_param.name,
                documented=doc_param.domain_type,
                decision="left out of the callable signature: the routine has no such argument"))  # fmt: skip
    merged.params = params
    merged.executor = db_api.executor.model_copy()
    calling = db_api.extra.get("pg_arguments")
    if isinstance(calling, list):
        merged.extra["pg_arguments"] = [{**item, "param": renamed.get(item["param"], item["param"])}
                                        for item in calling]  # fmt: skip
    for fact in ("signature", "sql_kind", "side_effect_reasons"):
        if fact in db_api.extra:
            merged.extra[fact] = db_api.extra[fact]
    if _ORDER.index(db_api.side_effect) > _ORDER.index(merged.side_effect):
        merged.side_effect = db_api.side_effect  # the stronger class wins: never weaker than the body says
    return merged


def _merge_param(api_key: str, doc: Param, db: Param, docs: Catalog, report: DriftReport) -> Param:
    merged = doc.model_copy(deep=True)
    documented_type = (
        docs.types[doc.domain_type].base_type if doc.domain_type in docs.types else doc.domain_type
    )
    if type_family(documented_type or doc.domain_type) != type_family(db.domain_type):
        report.cases.append(DriftCase(
            kind=DriftKind.PARAM_TYPE_MISMATCH, api=api_key, param=doc.name,
            documented=f"{doc.domain_type} ({documented_type})", database=db.domain_type,
            decision=f"the database type {db.domain_type} is used for calls; the documented description "
                     "is kept"))  # fmt: skip
        merged.domain_type = db.domain_type
        merged.json_schema = {}
    if doc.required != db.required:
        report.cases.append(DriftCase(
            kind=DriftKind.PARAM_REQUIRED_MISMATCH, api=api_key, param=doc.name,
            documented="required" if doc.required else "optional",
            database="required" if db.required else "optional (has a default)",
            decision=f"{'required' if db.required else 'optional'}, as the database says"))  # fmt: skip
        merged.required = db.required
        merged.default = db.default
    return merged


def render_drift_markdown(report: DriftReport) -> str:
    """The drift report as Markdown: summary counts, then one table row per case."""
    lines = [
        "# Drift report: documentation vs database",
        "",
        f"- documentation: `{report.docs_source}` ({report.documented_apis} APIs)",
        f"- database catalog: `{report.catalog_source}` ({report.database_routines} routines)",
        f"- matched by name: {report.matched}",
        "",
        "| kind | count |",
        "|---|---:|",
    ]
    lines += [f"| {kind} | {count} |" for kind, count in report.by_kind().items()]
    lines += [
        "",
        "| kind | API | parameter | documented | database | decision |",
        "|---|---|---|---|---|---|",
    ]
    for c in report.cases:
        cells = [c.kind.value, c.api, c.param or "", c.documented or "", c.database or "", c.decision]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    if not report.cases:
        lines.append("| — | no drift | | | | |")
    return "\n".join(lines) + "\n"


def write_drift_report(report: DriftReport, out: Path) -> tuple[Path, Path]:
    """``out`` (Markdown) and ``out`` with ``.json``; returns both paths."""
    from apiatlas.atomic import staged_outputs

    out.parent.mkdir(parents=True, exist_ok=True)
    markdown = out if out.suffix == ".md" else out.with_suffix(".md")
    as_json = markdown.with_suffix(".json")
    with staged_outputs() as staging:  # both renamed into place only when both are written
        staging.path_for(markdown).write_text(render_drift_markdown(report), encoding="utf-8")
        as_text = json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
        staging.path_for(as_json).write_text(as_text, encoding="utf-8")
    return markdown, as_json
