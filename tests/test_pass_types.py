"""The types pass: the built-in DS* map, documented overrides, field schemas and the API input schema."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api, Catalog, Column, Direction, DomainType, Param, SessionTable
from apiatlas.errors import Location, ReasonCode
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.type_map import schema_from_base_type
from apiatlas.passes.types import input_schema, merge_types, output_schema, types
from apiatlas.sources.bank_html.domain_types import BANK_TYPES


def test_builtin_map_is_large_and_well_formed() -> None:
    assert len(BANK_TYPES) >= 50
    for name, t in BANK_TYPES.items():
        assert name.startswith("DS") and t.name == name
        assert t.json_schema.get("type") in {"integer", "number", "string", "boolean"}, name
        assert t.meaning, name
        pattern = t.json_schema.get("pattern")
        if pattern is not None and isinstance(t.example, str):
            assert re.search(pattern, t.example), f"{name}: example {t.example!r} fails {pattern}"


def test_core_types_map_to_the_right_schema() -> None:
    assert BANK_TYPES["DSIDENTIFIER"].json_schema == {"type": "integer"}
    assert BANK_TYPES["DSIDENTIFIER"].meaning == "Идентификатор сущности"
    assert BANK_TYPES["DSDATE"].json_schema == {"type": "string", "format": "date"}
    assert BANK_TYPES["DSDATETIME"].json_schema == {"type": "string", "format": "date-time"}
    assert BANK_TYPES["DSMONEY"].json_schema == {"type": "number"}
    assert BANK_TYPES["DSFLAG"].json_schema["enum"] == [0, 1]
    acc = BANK_TYPES["DSACCNUMBER"].json_schema
    assert acc["type"] == "string" and acc["pattern"] == r"^\d{20}$"
    assert re.search(acc["pattern"], "40817810000000000001") and not re.search(acc["pattern"], "4081781000")
    inn = BANK_TYPES["DSINN"].json_schema["pattern"]
    assert (
        re.search(inn, "7707083893") and re.search(inn, "770708389312") and not re.search(inn, "77070838931")
    )
    isin = BANK_TYPES["DSISIN"].json_schema["pattern"]
    assert re.search(isin, "RU000A0JX0J2") and not re.search(isin, "ru000a0jx0j2")


def test_base_types_from_the_docs_map_to_json_types() -> None:
    assert schema_from_base_type("numeric(15,0)") == {"type": "integer"}
    assert schema_from_base_type("NUMERIC(19, 4)") == {"type": "number"}
    assert schema_from_base_type("nvarchar(40)") == {"type": "string", "maxLength": 40}
    assert schema_from_base_type("smalldatetime") == {"type": "string", "format": "date-time"}
    assert schema_from_base_type("bit") == {"type": "integer", "enum": [0, 1]}
    assert schema_from_base_type("geography") == {"type": "string"}


def test_documented_types_override_base_type_and_meaning() -> None:
    documented = {
        "DSIDENTIFIER": DomainType(name="DSIDENTIFIER", base_type="numeric(15,0)", meaning="ID объекта"),
        "DSCODE": DomainType(name="DSCODE", base_type="int", meaning="Числовой код"),
        "DSVARNAME40": DomainType(name="DSVARNAME40", base_type="varchar(40)", meaning="Имя (40)"),
    }
    merged = merge_types(documented, BuildConfig.for_source("bank_html"), BANK_TYPES)
    assert merged["DSIDENTIFIER"].meaning == "ID объекта"
    assert merged["DSIDENTIFIER"].json_schema == {"type": "integer"}
    assert merged["DSCODE"].json_schema == {"type": "integer"}  # the documented base type wins
    assert merged["DSVARNAME40"].json_schema == {"type": "string", "maxLength": 40}
    assert merged["DSVARNAME40"].generic and not merged["DSVARNAME40"].user_value
    assert not merged["DSACCNUMBER"].generic and merged["DSACCNUMBER"].user_value
    assert set(BANK_TYPES) <= set(merged)


def _api() -> Api:
    return Api(
        key="API_Acc_FindListByListOwnerID",
        object_key="Acc",
        params=[
            Param(
                name="OnlyOpenFlag",
                domain_type="DSTINYINT",
                description="1 — только открытые счета",
                default=0,
            ),
            Param(name="SurName", domain_type="DSVARFULLNAME", required=True, description="Фамилия"),
            Param(name="Mystery", domain_type="DSMYSTERY", description="Непонятное поле"),
        ],
        input_tables=[
            SessionTable(
                name="pAPI_Account_OwnerID",
                direction=Direction.IN,
                description="Список владельцев",
                columns=[
                    Column(name="OwnerID", domain_type="DSIDENTIFIER", description="ID владельца счёта")
                ],
            )
        ],
        output_tables=[
            SessionTable(
                name="pAPI_Account_List",
                direction=Direction.OUT,
                columns=[
                    Column(name="AccNumber", domain_type="DSACCNUMBER"),
                    Column(name="Other", domain_type="DSMYSTERY"),
                ],
            )
        ],
        source=Location(file="BObjects/Services/API_Acc_FindListByListOwnerID.htm"),
    )


def _typed_catalog() -> Catalog:
    catalog = Catalog(source_kind="bank_html", apis={"API_Acc_FindListByListOwnerID": _api()})
    types(catalog, BuildConfig.for_source("bank_html"), PassContext())
    return catalog


def test_param_schema_has_described_type_example_and_default() -> None:
    api = _typed_catalog().apis["API_Acc_FindListByListOwnerID"]
    flag, surname, _ = api.params
    assert surname.json_schema["type"] == "string"
    assert surname.json_schema["description"] == "Фамилия [DSVARFULLNAME]"
    assert surname.json_schema["example"] == "Иванов"  # the type's example
    assert flag.json_schema["description"] == "1 — только открытые счета [DSTINYINT]"
    assert flag.json_schema["default"] == 0 and flag.json_schema["type"] == "integer"
    acc = api.output_tables[0].columns[0].json_schema
    assert acc["pattern"] == BANK_TYPES["DSACCNUMBER"].json_schema["pattern"]
    assert acc["description"] == "Номер банковского счёта [DSACCNUMBER]"  # no description: the meaning


def test_unknown_type_falls_back_to_string_and_warns_once_where_first_used() -> None:
    catalog = _typed_catalog()
    api = catalog.apis["API_Acc_FindListByListOwnerID"]
    assert api.params[2].json_schema == {"type": "string", "description": "Непонятное поле [DSMYSTERY]"}
    warnings = [d for d in catalog.diagnostics if d.code is ReasonCode.UNKNOWN_DOMAIN_TYPE]
    assert len(warnings) == 1  # used twice, reported once
    assert warnings[0].location.file == "BObjects/Services/API_Acc_FindListByListOwnerID.htm"
    assert warnings[0].location.anchor == "API_Acc_FindListByListOwnerID.Mystery"
    assert catalog.stats["types"]["unknown"] == 1
    assert "DSMYSTERY" not in catalog.types


def test_input_schema_has_params_and_input_tables_as_arrays_of_rows() -> None:
    api = _typed_catalog().apis["API_Acc_FindListByListOwnerID"]
    schema = input_schema(api)
    assert schema["type"] == "object"
    assert list(schema["properties"]) == ["OnlyOpenFlag", "SurName", "Mystery", "pAPI_Account_OwnerID"]
    assert schema["required"] == ["SurName", "pAPI_Account_OwnerID"]
    table = schema["properties"]["pAPI_Account_OwnerID"]
    assert table["type"] == "array" and table["minItems"] == 1
    assert table["items"]["required"] == ["OwnerID"]
    owner = table["items"]["properties"]["OwnerID"]
    assert owner["type"] == "integer" and owner["description"] == "ID владельца счёта [DSIDENTIFIER]"
    out = output_schema(api)["properties"]["pAPI_Account_List"]
    assert list(out["items"]["properties"]) == ["AccNumber", "Other"]


def test_input_schema_without_types_pass_still_gives_strings() -> None:
    schema = input_schema(Api(key="API_X_Find", object_key="X", params=[Param(name="Q", description="q")]))
    assert schema["properties"]["Q"] == {"type": "string", "description": "q"}
    assert schema["required"] == []


def test_alike_fields_share_one_schema_and_others_get_their_own() -> None:
    def api(key: str, params: list[Param], columns: list[Column]) -> Api:
        table = SessionTable(name=f"p{key}", direction=Direction.OUT, columns=columns)
        return Api(key=key, object_key="Acc", params=params, output_tables=[table])

    first = api(
        "API_A",
        [
            Param(name="Flag", domain_type="DSTINYINT", default=1),
            Param(name="Ids", domain_type="DSINT", default=[1]),
        ],
        [
            Column(name="AccNumber", domain_type="DSACCNUMBER"),
            Column(name="Name", domain_type="DSVARFULLNAME"),
        ],
    )
    second = api(
        "API_B",
        [
            Param(name="Flag", domain_type="DSTINYINT", default=1),
            Param(name="Ids", domain_type="DSINT", default=[1]),
            Param(name="Flag2", domain_type="DSTINYINT", default=True),
        ],
        [
            Column(name="AccNumber", domain_type="DSACCNUMBER"),
            Column(name="Acc", domain_type="DSACCNUMBER", description="x"),
        ],
    )
    catalog = Catalog(source_kind="bank_html", apis={"API_A": first, "API_B": second})
    types(catalog, BuildConfig.for_source("bank_html"), PassContext())
    (a_cols,), (b_cols,) = ([t.columns for t in a.output_tables] for a in (first, second))
    assert a_cols[0].json_schema is b_cols[0].json_schema  # same type, same (no) description
    assert (
        b_cols[1].json_schema is not b_cols[0].json_schema
        and b_cols[1].json_schema["description"] == "x [DSACCNUMBER]"
    )
    assert a_cols[1].json_schema is not a_cols[0].json_schema
    assert first.params[0].json_schema is second.params[0].json_schema  # same default
    assert second.params[2].json_schema is not second.params[0].json_schema  # True is not 1 in JSON
    assert second.params[2].json_schema["default"] is True and second.params[0].json_schema["default"] == 1
    assert first.params[1].json_schema is not second.params[1].json_schema  # a list default: its own
    assert first.params[1].json_schema == second.params[1].json_schema
