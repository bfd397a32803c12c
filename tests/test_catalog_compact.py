"""One fields set per model class across a catalog: same dumps, assignments still work."""

from __future__ import annotations

from apiatlas.catalog.compact import all_fields, model_of_fields, share_field_sets
from apiatlas.catalog.model import Column, Edge, EdgeLevel, Param, SessionTable
from test_snapshot_catalog import mini_catalog


def test_every_model_of_a_catalog_shares_its_class_set_and_dumps_the_same() -> None:
    catalog = mini_catalog()
    before = catalog.model_dump(mode="json")
    count = share_field_sets(catalog)
    assert count > len(catalog.apis)  # the APIs and what they hold: params, tables, columns, verdicts
    assert catalog.model_dump(mode="json") == before
    for api in catalog.apis.values():
        assert api.model_fields_set is all_fields(type(api))
        for p in api.params:
            assert p.model_fields_set is all_fields(Param)
        for table in [*api.input_tables, *api.output_tables]:
            assert table.model_fields_set is all_fields(SessionTable)
            assert all(c.model_fields_set is all_fields(Column) for c in table.columns)
    assert share_field_sets(catalog) == 0  # a second walk finds nothing left to share


def test_assigning_a_field_of_one_model_leaves_the_others_alone() -> None:
    catalog = mini_catalog()
    share_field_sets(catalog)
    first, second = [p for api in catalog.apis.values() for p in api.params][:2]
    shared = set(all_fields(Param))
    first.description = "changed"
    assert second.description != "changed"
    assert all_fields(Param) == shared  # the shared set still names every field, nothing more


def test_edges_built_with_the_shared_set_dump_as_validated_ones() -> None:
    values = {
        "producer": "A",
        "producer_field": "Id",
        "consumer": "B",
        "consumer_field": "Id",
        "level": EdgeLevel.NAME_TYPE,
        "reason": "same name",
    }
    constructed = Edge.model_construct(_fields_set=all_fields(Edge), **values)
    assert constructed.model_dump(mode="json") == Edge(**values).model_dump(mode="json")


def test_a_model_of_its_fields_is_what_model_construct_builds() -> None:
    fields = {
        "producer": "API_A",
        "producer_table": "T_Out",
        "producer_field": "ID",
        "consumer": "API_B",
        "consumer_table": None,
        "consumer_field": "ID",
        "domain_type": "DSIDENTIFIER",
        "level": EdgeLevel.NAME_TYPE,
        "reason": "same field name ID",
    }
    built = model_of_fields(Edge, dict(fields))
    constructed = Edge.model_construct(_fields_set=all_fields(Edge), **fields)
    assert built == constructed
    assert list(vars(built)) == list(vars(constructed))  # the declared order: same JSON
    assert built.model_dump_json() == constructed.model_dump_json()
    assert built.model_fields_set is all_fields(Edge)
    assert Edge.model_validate(built.model_dump()) == built


def test_models_held_in_json_values_and_extras_are_reached() -> None:
    catalog = mini_catalog()
    api = next(iter(catalog.apis.values()))
    hidden = [Param(name="in_default"), Param(name="in_schema"), Column(name="in_extra"), Param(name="deep")]
    api.params[0].default = hidden[0]
    api.params[0].json_schema = {"x-model": hidden[1], "type": "object"}  # read by its first value
    api.extra["models"] = [{"nested": hidden[2]}]
    hidden[2].json_schema = {"items": [hidden[3]]}
    assert share_field_sets(catalog) > len(catalog.apis)
    assert all(model.model_fields_set is all_fields(type(model)) for model in hidden)
    assert share_field_sets(catalog) == 0
