"""SQL Server DDL projects as a source: a small fixture project, and WideWorldImporters read by path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apiatlas.catalog.model import Catalog, SideEffect
from apiatlas.executors.sqlserver import build_batch
from apiatlas.executors.validation import validate_call
from apiatlas.sources import detect_source, load_source
from apiatlas.sources.mssql_ddl.loader import load_sql_project
from apiatlas.sources.mssql_ddl.parser import parse_sql_file
from shared_data import shared

MINI = Path(__file__).parent / "data" / "dbsource" / "mini_project"
WWI = shared("sql", "wide-world-importers")
needs_wwi = pytest.mark.skipif(not WWI.is_dir(), reason=f"WideWorldImporters not found at {WWI}")

# Read/write labels set by reading each procedure body (True = the body changes the database).
# Writes through table variables (@t) or temp tables (#t) only are reads; so are the commented
# usage examples ("EXEC …" inside /* */) of the DataLoadSimulation helpers.
WWI_WRITES: dict[str, bool] = {
    # WebApi: one-statement bodies
    "WebApi.DeleteBuyingGroup": True, "WebApi.DeleteCity": True, "WebApi.DeleteColor": True,
    "WebApi.DeleteCountry": True, "WebApi.DeleteCustomer": True, "WebApi.DeleteStockGroup": True,
    "WebApi.DeleteSupplier": True, "WebApi.DeleteTransactionType": True,
    "WebApi.InsertBuyingGroupsFromJson": True, "WebApi.InsertCitiesFromJson": True,
    "WebApi.InsertColorsFromJson": True, "WebApi.InsertStockItemsFromJson": True,
    "WebApi.UpdateCityFromJson": True, "WebApi.UpdateInvoiceFromJson": True,
    "WebApi.UpdateSalesOrderFromJson": True, "WebApi.UpdateStockItemFromJson": True,
    "WebApi.Login": False, "WebApi.SearchForStockItems": False,
    # Website
    "Website.ActivateWebsiteLogon": True, "Website.ChangePassword": True,
    "Website.InsertCustomerOrders": True,
    "Website.InvoiceCustomerOrders": True, "Website.RecordColdRoomTemperatures": True,
    "Website.RecordVehicleTemperature": True, "Website.SearchForCustomers": False,
    "Website.SearchForPeople": False, "Website.SearchForStockItems": False,
    "Website.SearchForStockItemsByTags": False, "Website.SearchForSuppliers": False,
    # Integration: extracts built in #temp tables
    "Integration.GetCityUpdates": False, "Integration.GetCustomerUpdates": False,
    "Integration.GetSaleUpdates": False, "Integration.GetStockHoldingUpdates": False,
    "Integration.GetMovementUpdates": False,
    # DataLoadSimulation
    "DataLoadSimulation.GetRandomCustomer": False, "DataLoadSimulation.GetRandomStreet": False,
    "DataLoadSimulation.GetRandomStreetName": False, "DataLoadSimulation.GetRandomSecondaryAddress": False,
    "DataLoadSimulation.GetBuyingGroupDomain": False, "DataLoadSimulation.AddSpecialDeals": True,
    "DataLoadSimulation.ChangePasswords": True, "DataLoadSimulation.PickStockForCustomerOrders": True,
    "DataLoadSimulation.RecordColdRoomTemperatures": True,
    # Sequences and Application: dynamic SQL
    "Sequences.ReseedSequenceBeyondTableValues": True, "Sequences.ReseedAllSequences": True,
    "Application.CreateRoleIfNonexistent": True, "Application.Configuration_ApplyAuditing": True,
}  # fmt: skip


@pytest.fixture(scope="module")
def wwi() -> Catalog:
    return load_sql_project(WWI)


def test_mini_project_is_detected_and_parsed() -> None:
    assert detect_source(MINI) == "mssql_ddl"
    catalog = load_source(MINI)
    find = catalog.apis["Shop.FindItems"]
    assert [(p.name, p.domain_type, p.required, p.default) for p in find.params] == [
        ("Name", "nvarchar(100)", True, None),
        ("MaxRows", "int", False, 50),
        ("Total", "int", False, None),
    ]
    assert find.extra["output_params"] == ["Total"]
    assert find.title == "Find items by name."
    assert find.params[0].description == "Part of the item name"
    assert [c.name for c in find.output_tables[0].columns] == ["ItemID", "ItemName", "Price"]
    assert find.output_tables[0].columns[2].description == "Price of one unit"
    assert find.executor.target == "[Shop].[FindItems]"
    assert catalog.objects["Shop"].description == "Shop catalogue"


def test_mini_project_side_effects_are_comment_and_string_aware() -> None:
    apis = load_source(MINI).apis
    assert apis["Shop.FindItems"].side_effect is SideEffect.READ  # DML only in comments, strings, @table
    assert apis["Shop.AddItems"].side_effect is SideEffect.WRITE
    assert apis["Shop.RunAnything"].side_effect is SideEffect.DESTRUCTIVE
    assert apis["Shop.CallsAdd"].side_effect is SideEffect.WRITE  # through the procedure it runs
    tvp = apis["Shop.AddItems"].input_tables[0]
    assert tvp.name == "Items"
    assert [(c.name, c.domain_type, c.description) for c in tvp.columns] == [
        ("ItemID", "int", "Item to add"),
        ("Quantity", "decimal(18,2)", ""),
    ]


def test_a_broken_statement_becomes_a_problem_not_a_crash() -> None:
    parsed = parse_sql_file("CREATE PROCEDURE\nGO\nCREATE PROCEDURE dbo.Ok @a int AS SELECT @a AS A\n")
    assert [r.name for r in parsed.routines] == ["Ok"]
    assert parsed.problems and parsed.problems[0][0] == 1


@needs_wwi
def test_wwi_every_stored_procedure_becomes_an_api(wwi: Catalog) -> None:
    # each routine file starts with its CREATE (one procedure sits in a Functions folder)
    head = re.compile(  # first CREATE at a line start (comments may come before it)
        r"^\s*CREATE\s+(PROC(?:EDURE)?|FUNCTION)\s+\[?(\w+)\]?\.\[?(\w+)\]?", re.IGNORECASE | re.MULTILINE
    )
    expected: dict[str, set[str]] = {"PROC": set(), "PROCEDURE": set(), "FUNCTION": set()}
    for path in sorted(WWI.rglob("*.sql")):
        match = head.search(path.read_text(encoding="utf-8-sig"))
        if match:
            expected[match.group(1).upper()].add(f"{match.group(2)}.{match.group(3)}")
    procedures = {k for k, a in wwi.apis.items() if a.extra["sql_kind"] == "procedure"}
    assert procedures == expected["PROC"] | expected["PROCEDURE"]
    assert len(procedures) >= len(list(WWI.glob("*/Stored Procedures/*.sql")))
    functions = {k for k, a in wwi.apis.items() if a.extra["sql_kind"] == "function"}
    assert functions == expected["FUNCTION"]
    assert set(wwi.objects) == {k.split(".")[0] for k in procedures | functions}


@needs_wwi
def test_wwi_parameters_match_the_headers(wwi: Catalog) -> None:
    header_params = re.compile(r"^\s*,?\s*@(\w+)\s+(?:AS\s+)?[\w.\[\]]+", re.IGNORECASE | re.MULTILINE)
    for path in sorted(WWI.glob("*/Stored Procedures/*.sql")):
        text = path.read_text(encoding="utf-8-sig")
        header = re.split(
            r"^\s*(?:WITH\s+EXECUTE|AS\b)", text, maxsplit=1, flags=re.IGNORECASE | re.MULTILINE
        )[0]
        declared = re.findall(r"@(\w+)", header.split("(", 1)[-1] if "(@" in header else header)
        api = wwi.apis[f"{path.parts[-3]}.{path.stem}"]
        got = [p.name for p in api.params] + [t.name for t in api.input_tables]
        assert sorted(got) == sorted(declared), path.name
    assert header_params  # the pattern compiles
    orders = wwi.apis["Website.InsertCustomerOrders"]
    assert [(t.name, len(t.columns)) for t in orders.input_tables] == [("Orders", 8), ("OrderLines", 4)]
    assert orders.input_tables[0].columns[0].name == "OrderReference"


@needs_wwi
def test_wwi_every_description_is_attached(wwi: Catalog) -> None:
    text = "\n".join(p.read_text(encoding="utf-8-sig") for p in sorted(WWI.rglob("*.sql")))
    schema_level = re.findall(
        r"@value\s*=\s*N?'((?:[^']|'')*)',\s*@level0type\s*=\s*N'SCHEMA',\s*@level0name\s*=\s*N'(\w+)';", text
    )
    assert schema_level
    for value, schema in schema_level:
        if schema in wwi.objects:
            assert wwi.objects[schema].description == value.replace("''", "'")
    counts = wwi.stats["descriptions"]
    assert counts["schemas"] == len(schema_level)
    assert counts["columns"] == len(re.findall(r"@level2type\s*=\s*N'COLUMN'", text))
    described = [c for a in wwi.apis.values() for t in a.output_tables for c in t.columns if c.description]
    assert described  # result columns read straight from a described table column carry its text
    assert any(a.extra.get("tables") for a in wwi.apis.values())


@needs_wwi
def test_wwi_read_write_class_on_the_labelled_list(wwi: Catalog) -> None:
    assert len(WWI_WRITES) >= 40
    wrong = {k: wwi.apis[k].side_effect.value for k, writes in WWI_WRITES.items()
             if (wwi.apis[k].side_effect is not SideEffect.READ) != writes}  # fmt: skip
    accuracy = 1 - len(wrong) / len(WWI_WRITES)
    print(f"read/write accuracy on {len(WWI_WRITES)} labelled procedures: {accuracy:.1%}; wrong: {wrong}")
    assert not wrong


def test_sql_server_batch_declares_table_valued_parameters() -> None:
    catalog = load_source(MINI)
    apis, types = catalog.apis, catalog.types
    add = apis["Shop.AddItems"]
    rows = {"Items": [{"ItemID": 1, "Quantity": 2.5}, {"ItemID": 2}]}
    call = validate_call(add, {"UserID": 7}, rows, types=types)
    batch, params = build_batch(add, call, types=types)
    assert "DECLARE @Items [Shop].[ItemList];" in batch
    assert "INSERT INTO @Items ([ItemID], [Quantity]) VALUES (%s, %s), (%s, %s);" in batch
    assert "EXEC [Shop].[AddItems] @UserID = %s, @Items = @Items;" in batch
    assert "#Items" not in batch
    assert [float(p) if p is not None else None for p in params] == [1, 2.5, 2, None, 7]
    find = apis["Shop.FindItems"]
    batch, params = build_batch(find, validate_call(find, {"Name": "bolt%"}, {}, types=types), types=types)
    # the declared default fills @MaxRows; the empty OUTPUT @Total is left out instead of passed as NULL
    assert batch.rstrip().endswith("EXEC [Shop].[FindItems] @Name = %s, @MaxRows = %s;")
    assert [str(p) for p in params] == ["bolt%", "50"]
    assert "#result" not in batch  # the procedure's own SELECT is the result set
