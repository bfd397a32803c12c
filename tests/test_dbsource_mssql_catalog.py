"""The live SQL Server catalog source, on recorded rows (no SQL Server runs where apiatlas is built)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import ConfigError
from apiatlas.sources import detect_source
from apiatlas.sources.mssql_catalog import load_mssql_catalog, rows_to_objects, sql_type
from apiatlas.sources.mssql_ddl.assemble import build_catalog

ROWS = Path(__file__).parent / "data" / "dbsource" / "mssql_catalog_rows.json"


def recorded() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(ROWS.read_text(encoding="utf-8"))
    return data


def test_types_are_spelled_from_catalog_facts() -> None:
    assert sql_type("nvarchar", 200, 0, 0) == "nvarchar(100)"
    assert sql_type("varchar", -1, 0, 0) == "varchar(max)"
    assert sql_type("decimal", 9, 18, 2) == "decimal(18,2)"
    assert sql_type("datetime2", 8, 27, 7) == "datetime2"
    assert sql_type("INT", 4, 10, 0) == "int"


def test_recorded_rows_become_apis() -> None:
    catalog = build_catalog(rows_to_objects(recorded()), source_kind="mssql_catalog")
    assert set(catalog.apis) == {"Shop.FindItems", "Shop.AddItems", "Shop.PriceOf", "Shop.Purge"}
    find = catalog.apis["Shop.FindItems"]
    # types from sys.parameters, the default from the parsed definition
    assert [(p.name, p.domain_type, p.required, p.default) for p in find.params] == [
        ("Name", "nvarchar(100)", True, None),
        ("MaxRows", "int", False, 50),
        ("Total", "int", False, None),
    ]
    assert find.title == "Find items by name." and find.params[0].description == "Part of the item name"
    assert [c.name for c in find.output_tables[0].columns] == ["ItemID", "ItemName"]
    assert find.output_tables[0].columns[1].description == "Name of the item"
    assert find.side_effect is SideEffect.READ
    add = catalog.apis["Shop.AddItems"]
    assert add.side_effect is SideEffect.WRITE  # MERGE into a real table
    assert [(c.name, c.domain_type, c.description) for c in add.input_tables[0].columns] == [
        ("ItemID", "int", "Item to add"),
        ("Quantity", "decimal(18,2)", ""),
    ]
    assert catalog.apis["Shop.PriceOf"].executor.kind == "sql_function"
    # no definition (an encrypted module): the body cannot be read, so it is never taken as read-only
    assert catalog.apis["Shop.Purge"].side_effect is SideEffect.WRITE
    assert catalog.objects["Shop"].description == "Shop catalogue"


def test_urls_are_detected_and_passwords_refused() -> None:
    assert detect_source(Path("mssql://reader@db.example:1433/WWI")) == "mssql_catalog"
    with pytest.raises(ConfigError, match="password"):
        load_mssql_catalog("mssql://reader:secret@db.example/WWI")
