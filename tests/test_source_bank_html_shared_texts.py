"""Pages parsed apart share their equal texts once received: one string object per repeated name."""

from __future__ import annotations

import pickle
import shutil
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from apiatlas.catalog.compact import all_fields, share_field_sets
from apiatlas.catalog.model import (
    Api,
    Column,
    Direction,
    ErrorCode,
    ExecutorBinding,
    FunnelVerdict,
    Param,
    SessionTable,
)
from apiatlas.errors import Location
from apiatlas.sources import source_format
from apiatlas.sources.bank_html.loader import load_bank_docs
from apiatlas.sources.bank_html.records import (
    ApiPage,
    ObjectPage,
    ParsedPage,
    TableLink,
    TablePage,
    new_column,
    new_error_code,
    new_param,
    send_entities_compactly,
    share_texts,
)

BANK_DOCS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "docs"


def _copy(text: str) -> str:
    """An equal string that is another object (as a page from another worker brings)."""
    return "".join([text[:1], text[1:]])


def test_names_repeated_across_pages_become_one_object() -> None:
    key, table, about = "API_Acc_FindByID", "pAPI_Acc_List", "Счета клиента"
    obj = ObjectPage(file="BO_Acc.htm", key="Acc", visa="Ok", methods=[_copy(key)])
    api = ApiPage(
        file="API_Acc_FindByID.htm",
        key=_copy(key),
        object_ref=_copy("Acc"),
        description=_copy(about),
        visa=_copy("Ok"),
        params=[Param(name="ID", description=_copy(about))],
        tables=[TableLink(name=_copy(table), direction=Direction.OUT, description=_copy(about))],
    )
    table_page = TablePage(
        file="T_Acc.htm",
        name=_copy(table),
        api=_copy(key),
        columns=[Column(name="ID", description=_copy(about))],
    )
    texts: dict[str, str] = {}
    for page in (obj, api, table_page):
        share_texts(ParsedPage(file=page.file, sha256="", page=page), texts)
    assert api.key is obj.methods[0] is table_page.api
    assert api.object_ref is obj.key and api.visa is obj.visa
    assert api.tables[0].name is table_page.name
    assert api.description is api.tables[0].description is api.params[0].description
    assert table_page.columns[0].description is api.description
    assert api.key == key and table_page.name == table and api.description == about


def test_a_loaded_catalog_shares_its_keys_between_apis_and_objects() -> None:
    catalog = load_bank_docs(BANK_DOCS, workers=1)
    pairs = [(key, obj) for obj in catalog.objects.values() for key in obj.api_keys if key in catalog.apis]
    assert pairs
    assert all(key is catalog.apis[key].key for key, _ in pairs)
    owned = [api for api in catalog.apis.values() if api.object_key in catalog.objects]
    assert owned and all(api.object_key is catalog.objects[api.object_key].key for api in owned)


def test_entities_sent_by_a_parse_worker_come_back_equal_with_the_shared_fields_set() -> None:
    parsed = [
        Param(name="ID", domain_type="DSIDENTIFIER", required=True, description="Счёт", example="42"),
        Column(name="ID", description="Счёт", json_schema={"type": "integer"}),
        ErrorCode(code="E1", description="Нет счёта"),
    ]
    send_entities_compactly()  # what each parse worker does first
    try:
        back = pickle.loads(ForkingPickler.dumps(parsed))
    finally:
        for cls in (Param, Column, ErrorCode):
            ForkingPickler._extra_reducers.pop(cls, None)
    assert back == parsed and [e.model_dump() for e in back] == [e.model_dump() for e in parsed]
    assert all(e.model_fields_set is all_fields(type(e)) for e in back)
    back[1].description = "Другой"  # an ordinary model: assignment validates and changes only it
    assert parsed[1].description == "Счёт"


def test_two_workers_give_the_catalog_one_worker_gives_with_shared_fields_sets() -> None:
    one, two = load_bank_docs(BANK_DOCS, workers=1), load_bank_docs(BANK_DOCS, workers=2)
    assert two.model_dump_json() == one.model_dump_json()
    columns = [
        c for api in two.apis.values() for t in api.input_tables + api.output_tables for c in t.columns
    ]
    entities = [*columns, *(e for api in two.apis.values() for e in [*api.params, *api.errors])]
    assert columns and all(e.model_fields_set is all_fields(type(e)) for e in entities)


def test_entities_built_without_validation_are_the_validated_ones() -> None:
    """The parsers build parameters, columns and error codes with ``new_*`` (no validation): the same field
    values in the same order as the models' own constructors, so the same dumps and pickles."""
    built_and_validated = [
        (
            new_column("AccID", "DSIDENTIFIER", "ID"),
            Column(name="AccID", domain_type="DSIDENTIFIER", description="ID"),
        ),
        (
            new_param("Date", "DSDATE", True, "дата", None, "2024-01-01"),
            Param(name="Date", domain_type="DSDATE", required=True, description="дата", example="2024-01-01"),
        ),
        (new_error_code("17", "нет счёта"), ErrorCode(code="17", description="нет счёта")),
    ]
    for built, validated in built_and_validated:
        assert type(built) is type(validated)
        assert list(vars(built).items()) == list(vars(validated).items())
        assert built.model_dump_json() == validated.model_dump_json()
    # each gets its own JSON Schema dict (the types pass fills it in place)
    assert vars(new_column("a", "", ""))["json_schema"] is not vars(new_column("a", "", ""))["json_schema"]


def _same(built: Any, validated: Any) -> None:
    """Equal values of the same types all the way down (``==`` alone takes ``"in"`` for ``Direction.IN``)."""
    assert type(built) is type(validated)
    if isinstance(built, BaseModel):
        assert list(built.__dict__) == list(validated.__dict__)
        for name, value in built.__dict__.items():
            _same(value, validated.__dict__[name])
        assert (built.__pydantic_extra__, built.__pydantic_private__) == (None, None)
    elif isinstance(built, (list, tuple)):
        assert len(built) == len(validated)
        for a, b in zip(built, validated, strict=True):
            _same(a, b)
    elif isinstance(built, dict):
        assert list(built) == list(validated)
        for key, value in built.items():
            _same(value, validated[key])
    else:
        assert built == validated


def test_assembled_apis_are_what_validation_builds() -> None:
    catalog = load_bank_docs(BANK_DOCS, workers=1)
    tables = 0
    for api in catalog.apis.values():
        _same(api, Api(**{name: getattr(api, name) for name in Api.model_fields}))
        for table in [*api.input_tables, *api.output_tables]:
            _same(table, SessionTable(**{name: getattr(table, name) for name in SessionTable.model_fields}))
            assert table.source is not None
            _same(table.source, Location(file=table.source.file, anchor=table.source.anchor))
            tables += 1
        _same(api.executor, ExecutorBinding(kind="sql_procedure", target=f'api."{api.key}"'))
        _same(api.funnel, FunnelVerdict())
        assert api.source is not None and api.source.model_dump() == {
            "file": api.source.file,
            "line": None,
            "anchor": api.key,
        }
    assert len(catalog.apis) > 10 and tables > 10


def test_a_loaded_catalog_leaves_share_field_sets_nothing_to_do(tmp_path: Path) -> None:
    """``BankHtmlFormat.shares_field_sets``: the compiler skips the walk, so every model must have its set,
    the diagnostics of pages parsed in other processes and of the assembly included."""
    docs = tmp_path / "docs"
    shutil.copytree(BANK_DOCS, docs)
    services = docs / "BObjects" / "Services"
    (services / "API_Broken_FindByID.htm").write_bytes(b"<html><body><table><tr><td>x")  # truncated
    page = next(services.glob("API_*.htm"))
    page.write_bytes(page.read_bytes().replace(b"T_", b"T_Missing_", 1))  # a table link to no table page
    (docs / "BObjects" / "BO_Empty.htm").write_bytes(b"\xff\xfe\x00garbage")  # not decodable
    catalog = load_bank_docs(docs, workers=2)
    assert len(catalog.diagnostics) >= 3
    assert source_format(catalog.source_kind).shares_field_sets
    assert share_field_sets(catalog) == 0
