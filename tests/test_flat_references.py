"""Keys of the catalog's other kinds below the flattened depth, and the share of an item key's producers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Api, Catalog
from apiatlas.snapshot.writer import api_body_parts
from apiatlas.sources import load_source
from apiatlas.sources.openapi.references import names_kind, path_kinds
from apiatlas.sources.openapi.schemas import MAX_COLUMNS
from test_openapi_edges import STR, arr, obj, ok


def item_read(schema: dict[str, Any]) -> dict[str, Any]:
    name = {"name": "name", "in": "path", "required": True, "schema": STR}
    return {"get": {"parameters": [name], "responses": ok(schema)}}


# a shelf's plan nests a rack's name five levels down (a reference of its own schema) and a label
PLAN = {
    "type": "object",
    "properties": {
        "layout": obj(
            bays=arr(
                obj(
                    slots=arr(
                        obj(
                            mount=obj(rackRef={"$ref": "#/components/schemas/Ref"}, rackName=STR, label=STR),
                            tag=obj(name=STR),
                        )
                    )
                )
            )
        )
    },
}
SHELF = obj(name=STR, spec={"$ref": "#/components/schemas/Plan"})


def spec(paths: dict[str, Any]) -> dict[str, Any]:
    return {
        "openapi": "3.0.0",
        "info": {"title": "store", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Plan": PLAN, "Ref": obj(name=STR, key=STR)}},
    }


def read(tmp_path: Path, paths: dict[str, Any], key: str) -> Api:
    path = tmp_path / "store.json"
    path.write_text(json.dumps(spec(paths)), encoding="utf-8")
    return load_source(path, kind="openapi").apis[key]


def columns(tmp_path: Path, paths: dict[str, Any], key: str) -> list[str]:
    return [c.name for c in read(tmp_path, paths, key).output_tables[0].columns]


def test_keys_of_another_kind_below_the_depth_are_kept(tmp_path: Path) -> None:
    cols = columns(tmp_path, {"/shelves/{name}": item_read(SHELF), "/racks/{name}": item_read(obj(name=STR))},
                   "GET /shelves/{name}")  # fmt: skip
    deep = "spec.layout.bays[].slots[].mount"
    assert f"{deep}.rackRef.name" in cols and f"{deep}.rackName" in cols
    assert f"{deep}.label" not in cols and f"{deep}.rackRef.key" not in cols  # not a key of a kind
    assert "spec.layout.bays[].slots[].tag.name" not in cols  # a tag is no kind of the catalog
    assert "spec.layout.bays[].slots[]" in cols  # the first level below the depth stays one column, as before


def test_keys_kept_below_the_depth_are_for_the_graph_not_the_search_text(tmp_path: Path) -> None:
    api = read(tmp_path, {"/shelves/{name}": item_read(SHELF), "/racks/{name}": item_read(obj(name=STR))},
               "GET /shelves/{name}")  # fmt: skip
    deep = "spec.layout.bays[].slots[].mount"
    assert api.extra["reference_fields"] == [f"{deep}.rackRef.name", f"{deep}.rackName"]
    body = api_body_parts(api)
    assert "spec.layout.bays[].slots[]" in body and f"{deep}.rackName" not in body


def test_without_the_kind_in_the_catalog_nothing_below_the_depth_is_kept(tmp_path: Path) -> None:
    cols = columns(tmp_path, {"/shelves/{name}": item_read(SHELF)}, "GET /shelves/{name}")
    assert "spec.layout.bays[].slots[]" in cols
    assert not any(c.startswith("spec.layout.bays[].slots[].") for c in cols)


def test_a_cut_response_keeps_the_keys_of_other_kinds(tmp_path: Path) -> None:
    wide = obj(**{f"f{i:03}": STR for i in range(MAX_COLUMNS + 20)}, zone=obj(rackName=STR))
    paths = {"/shelves/{name}": item_read(wide), "/racks/{name}": item_read(obj(name=STR))}
    cols = columns(tmp_path, paths, "GET /shelves/{name}")
    assert len(cols) <= MAX_COLUMNS and "zone.rackName" in cols


def test_which_fields_name_a_kind() -> None:
    kinds = path_kinds(["/racks/{name}", "/config/maps/{id}", "/apis/store.example.io/{x}", "/v1/ab/{id}"])
    assert kinds == {"rack": {"name"}, "map": {"id"}}
    assert names_kind("a.rackRef.name", kinds) and names_kind("a.map.id", kinds)
    assert names_kind("a.b.rackName", kinds) and names_kind("a.rack.spareRackName", kinds)
    assert not names_kind("a.rackRef.key", kinds) and not names_kind("a.stackName", kinds)
    assert not names_kind("a.tag.name", kinds)
    # only by the key word the kind's items are read by, and only when the words before it are the kind
    assert not names_kind("a.rack.id", kinds) and not names_kind("a.map.name", kinds)
    cards = path_kinds(["/customers/{customer}/cards/{card_id}", "/accounts/{account}"])
    assert cards == {"customer": {"id"}, "card": {"id"}, "account": {"id"}}
    assert names_kind("x.card.id", cards) and names_kind("x.cardId", cards)
    assert not names_kind("sources.data[].card.name", cards)  # a cardholder's name
    assert not names_kind("x.account_holder_name", cards) and not names_kind("x.account_holder_id", cards)


def test_an_item_key_is_fed_by_every_kind_nesting_the_same_reference(tmp_path: Path) -> None:
    """Eight kinds of thing (and their ``/status``) hold a rack's name twice, nested alike: the limit of
    producers per field (10) reaches each kind's own read before a second field or a sub-resource."""
    holder = obj(spec=obj(slots=arr(obj(rack=obj(rackName=STR), spare=obj(rackName=STR)))))
    paths: dict[str, Any] = {"/racks/{name}": item_read(obj(name=STR))}
    for letter in "abcdefgh":
        paths[f"/{letter}boxes/{{name}}"] = item_read(holder)
        paths[f"/{letter}boxes/{{name}}/status"] = item_read(holder)
    path = tmp_path / "store.json"
    path.write_text(json.dumps(spec(paths)), encoding="utf-8")
    catalog: Catalog = compile_docs(
        path, overlays_dir=None, config_path=None, out=tmp_path / "s.atlas", write_report=False
    ).catalog
    into = [e for e in catalog.edges if e.consumer == "GET /racks/{name}" and e.consumer_field == "name"]
    producers = {e.producer for e in into}
    assert {f"GET /{letter}boxes/{{name}}" for letter in "abcdefgh"} <= producers
