"""Build the Catalog from parsed pages and check every cross-reference between them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from apiatlas.catalog.compact import adopt_shared_fields_set
from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    DeclaredSource,
    Direction,
    ExecutorBinding,
    FunnelVerdict,
    SessionTable,
)
from apiatlas.errors import Location, ReasonCode, Severity
from apiatlas.sources.bank_html.contract import mark_incomplete_contracts
from apiatlas.sources.bank_html.declared import declared_sources
from apiatlas.sources.bank_html.labels import parse_visa
from apiatlas.sources.bank_html.records import (
    ApiPage,
    ObjectPage,
    ParsedPage,
    TableLink,
    TablePage,
    TypesPage,
    entity_from_fields,
    finding,
    new_location,
)
from apiatlas.sources.bank_html.side_effects import side_effect_of

SOURCE_KIND = "bank_html"


@dataclass(slots=True)
class _Index:
    """Pages by key, file and (API, table), first file in path order winning duplicates."""

    objects: dict[str, ObjectPage] = field(default_factory=dict)
    object_by_file: dict[str, str] = field(default_factory=dict)
    object_by_name: dict[str, str] = field(default_factory=dict)
    apis: dict[str, ApiPage] = field(default_factory=dict)
    tables_by_file: dict[str, TablePage] = field(default_factory=dict)
    tables_by_pair: dict[tuple[str, str], TablePage] = field(default_factory=dict)
    listed_in: dict[str, list[str]] = field(default_factory=dict)  # API key -> objects listing it
    used_tables: set[str] = field(default_factory=set)


def assemble_catalog(parsed: list[ParsedPage]) -> Catalog:
    """Turn parsed pages (in any order) into a Catalog whose content depends only on the pages."""
    catalog = Catalog(source_kind=SOURCE_KIND)
    adopt_shared_fields_set(catalog)  # as every model it makes (``BankHtmlFormat.shares_field_sets``)
    ordered = sorted(parsed, key=lambda p: p.file)
    for page in ordered:
        if page.sha256:  # an unreadable file has no hash, only its UNDECODABLE_FILE diagnostic
            catalog.source_files[page.file] = page.sha256
        catalog.diagnostics.extend(page.diagnostics)
    index = _index(ordered, catalog)
    for page in ordered:
        if isinstance(page.page, TypesPage):
            _add_types(page.page, catalog)
    for key in sorted(index.apis):
        catalog.apis[key] = _api(index.apis[key], index, catalog)
    mark_incomplete_contracts(catalog, index.tables_by_file)
    members: dict[str, set[str]] = {}
    for key, api in catalog.apis.items():
        members.setdefault(api.object_key, set()).add(key)
    for key in sorted(index.objects):
        catalog.objects[key] = _object(index.objects[key], members.get(key, set()), catalog)
    _check_declared(catalog)
    for file in sorted(index.tables_by_file):
        if file not in index.used_tables:
            table = index.tables_by_file[file]
            catalog.add_diagnostic(
                finding(
                    Severity.WARNING,
                    ReasonCode.DANGLING_REFERENCE,
                    f"table page {table.name} (API row: {table.api or 'none'}) is linked from no API page",
                    file,
                    table.name,
                )
            )
    catalog.stats["source"] = {
        "kind": SOURCE_KIND,
        "files": len(ordered),
        "skipped_files": sum(1 for p in ordered if p.page is None),
        "objects": len(catalog.objects),
        "apis": len(catalog.apis),
        "table_pages": len(index.tables_by_file),
        "types": len(catalog.types),
    }
    return catalog


def _index(ordered: list[ParsedPage], catalog: Catalog) -> _Index:
    index = _Index()
    for parsed in ordered:
        page = parsed.page
        if isinstance(page, ObjectPage):
            if _is_duplicate(page.key, index.objects, page.file, "business object", catalog):
                continue
            index.objects[page.key] = page
            index.object_by_file[page.file] = page.key
            index.object_by_name.setdefault(page.name, page.key)
            for api in page.methods:
                index.listed_in.setdefault(api, []).append(page.key)
        elif isinstance(page, ApiPage):
            if not _is_duplicate(page.key, index.apis, page.file, "API", catalog):
                index.apis[page.key] = page
        elif isinstance(page, TablePage):
            index.tables_by_file[page.file] = page
            index.tables_by_pair.setdefault((page.api, page.name), page)
    return index


def _is_duplicate(
    key: str, seen: dict[str, ObjectPage] | dict[str, ApiPage], file: str, what: str, catalog: Catalog
) -> bool:
    first = seen.get(key)
    if first is None:
        return False
    catalog.add_diagnostic(
        finding(
            Severity.ERROR,
            ReasonCode.DUPLICATE_KEY,
            f"{what} {key} is already defined by {first.file}; this page is skipped",
            file,
            key,
        )
    )
    return True


def _add_types(page: TypesPage, catalog: Catalog) -> None:
    for domain in page.types:
        if domain.name in catalog.types:
            catalog.add_diagnostic(
                finding(
                    Severity.WARNING,
                    ReasonCode.DUPLICATE_KEY,
                    f"domain {domain.name} is defined twice; the first definition is kept",
                    page.file,
                    domain.name,
                )
            )
            continue
        adopt_shared_fields_set(domain)  # built and pickled by a parse worker
        if domain.source is not None:
            adopt_shared_fields_set(domain.source)
        catalog.types[domain.name] = domain


def _owner(page: ApiPage, index: _Index, catalog: Catalog) -> str:
    """The API's business object: its own 'Бизнес-объект' row first, else the BO pages listing it."""
    ref, target = page.object_ref, page.object_target
    for candidate in (
        ref if ref in index.objects else None,
        index.object_by_file.get(target) if target else None,
        index.object_by_name.get(ref) if ref else None,
    ):
        if candidate:
            return candidate
    listed = index.listed_in.get(page.key, [])
    if ref or target:
        catalog.add_diagnostic(
            finding(
                Severity.WARNING,
                ReasonCode.DANGLING_REFERENCE,
                f"'Бизнес-объект' names {ref or target}, which has no BO page"
                + (f"; using {listed[0]}, whose BO page lists this API" if listed else ""),
                page.file,
                page.key,
            )
        )
    elif not listed:
        catalog.add_diagnostic(
            finding(
                Severity.WARNING,
                ReasonCode.MISSING_SECTION,
                "no 'Бизнес-объект' row and no BO page lists this API: it belongs to no object",
                page.file,
                page.key,
            )
        )
    return listed[0] if listed else ""


def _api(page: ApiPage, index: _Index, catalog: Catalog) -> Api:
    api = _new_api(page, _owner(page, index, catalog))
    if page.visa is not None:
        api.extra["visa"] = page.visa
    if page.object_ref and page.object_ref != api.object_key:
        api.extra["object_ref"] = page.object_ref
    seen: set[str] = set()
    for link in page.tables:
        if link.name in seen:
            catalog.add_diagnostic(
                finding(
                    Severity.WARNING,
                    ReasonCode.DUPLICATE_KEY,
                    f"table {link.name} is linked twice; the first link is kept",
                    page.file,
                    page.key,
                )
            )
            continue
        seen.add(link.name)
        table = _session_table(page, link, index, catalog)
        (api.input_tables if link.direction == "in" else api.output_tables).append(table)
    sources: list[DeclaredSource] = []
    for param in api.params:
        sources.extend(declared_sources(param.name, param.description))
    for table in api.input_tables:
        for column in table.columns:
            sources.extend(declared_sources(column.name, column.description))
    for source in sources:
        adopt_shared_fields_set(source)
    api.declared_sources = sources
    return api


def _session_table(page: ApiPage, link: TableLink, index: _Index, catalog: Catalog) -> SessionTable:
    table_page = index.tables_by_file.get(link.target) if link.target else None
    if table_page is None:
        table_page = index.tables_by_pair.get((page.key, link.name))
    anchor = f"{page.key}#{link.name}"
    if table_page is None:
        catalog.add_diagnostic(
            finding(
                Severity.WARNING,
                ReasonCode.DANGLING_REFERENCE,
                f"table {link.name} links to {link.target or 'nothing'}, which is not a table page; "
                "its columns are unknown",
                page.file,
                anchor,
            )
        )
        return _new_table(link.name, link.direction, link.description, [], new_location(page.file, anchor))
    index.used_tables.add(table_page.file)
    disagreements = []
    if table_page.name != link.name:
        disagreements.append(f"its name is {table_page.name}")
    if table_page.api and table_page.api != page.key:
        disagreements.append(f"its API row says {table_page.api}")
    if table_page.direction is not None and table_page.direction != link.direction:
        disagreements.append(f"its direction is {table_page.direction.value}")
    if disagreements:
        catalog.add_diagnostic(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                f"table page disagrees with {page.file} ({'; '.join(disagreements)}); the API page wins",
                table_page.file,
                anchor,
            )
        )
    # every API linking a table page holds its columns: alike fields are one instance already (the loader's
    # ``share_texts``), and no pass changes a field in place but by its content (the types pass gives alike
    # fields one JSON Schema)
    columns = list(table_page.columns)
    description = link.description or table_page.description
    return _new_table(link.name, link.direction, description, columns, table_page.location)


# The assembly builds an ``Api`` per API page and a ``SessionTable`` per table link from values the page
# parsers made (texts, bools, enums, lists of built entities): built like ``entity_from_fields`` (the
# ``__dict__`` validation gives for those values, fields in the model's order, defaults new) they cost a
# fraction of validating them again.


def _new_api(page: ApiPage, owner: str) -> Api:
    """``Api(key=..., object_key=owner, ...)`` of an API page, its tables and declared sources to come."""
    executor = entity_from_fields(ExecutorBinding, {"kind": "sql_procedure", "target": f'api."{page.key}"'})
    fields: dict[str, Any] = {
        "key": page.key,
        "object_key": owner,
        "title": page.title,
        "description": page.description,
        "params": list(page.params),
        "input_tables": [],
        "output_tables": [],
        "errors": list(page.errors),
        "approved": parse_visa(page.visa),
        "implemented": page.implemented,
        "forbidden": page.forbidden,
        "side_effect": side_effect_of(page.key),
        "overlay": None,
        "declared_sources": [],
        "funnel": entity_from_fields(FunnelVerdict, {"kept": True, "dropped_at": None, "reason": None}),
        "entry_point": False,
        "executor": executor,
        "source": page.location,
        "extra": {},
        "incomplete_contract": None,
    }
    return entity_from_fields(Api, fields)  # type: ignore[return-value]


def _new_table(
    name: str, direction: Direction, description: str, columns: list[Column], source: Location
) -> SessionTable:
    fields: dict[str, Any] = {"name": name, "direction": direction, "description": description}
    fields.update(columns=columns, source=source)
    return entity_from_fields(SessionTable, fields)  # type: ignore[return-value]


def _object(page: ObjectPage, members: set[str], catalog: Catalog) -> BusinessObject:
    listed: list[str] = []
    for key in page.methods:
        api = catalog.apis.get(key)
        if api is None:
            catalog.add_diagnostic(
                finding(
                    Severity.WARNING,
                    ReasonCode.DANGLING_REFERENCE,
                    f"'Методы' lists {key}, which has no API page",
                    page.file,
                    page.key,
                )
            )
        elif api.object_key != page.key:
            catalog.add_diagnostic(
                finding(
                    Severity.WARNING,
                    ReasonCode.MALFORMED_PAGE,
                    f"'Методы' lists {key}, but its API page puts it in {api.object_key or 'no object'}; "
                    "the API page wins",
                    page.file,
                    page.key,
                )
            )
        else:
            listed.append(key)
    business_object = BusinessObject(
        key=page.key,
        name=page.name,
        title=page.title,
        description=page.description,
        approved=parse_visa(page.visa),
        api_keys=listed + sorted(members - set(listed)),
        source=page.location,
    )
    adopt_shared_fields_set(business_object)
    return business_object


def _check_declared(catalog: Catalog) -> None:
    for api in catalog.apis.values():
        for source in api.declared_sources:
            if source.producer_api not in catalog.apis:
                catalog.add_diagnostic(
                    finding(
                        Severity.WARNING,
                        ReasonCode.DANGLING_REFERENCE,
                        f"{source.field} is declared to come from {source.producer_api}, which has no page",
                        (api.source.file if api.source else None) or "",
                        api.key,
                    )
                )
