"""The openapi source on small specs written here: params, bodies, responses, $refs, cycles, Swagger 2.0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Catalog, SideEffect
from apiatlas.errors import ReasonCode, Severity, SourceError
from apiatlas.sources import detect_source, load_source
from apiatlas.sources.openapi.schemas import MAX_COLUMNS


def write(path: Path, spec: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".json":
        path.write_text(json.dumps(spec), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return path


def load(path: Path) -> Catalog:
    return load_source(path, kind="openapi")


PETSTORE: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1.2"},
    "servers": [{"url": "https://pets.example/v1"}],
    "security": [{"bearer": []}],
    "tags": [{"name": "pets", "description": "Everything about pets\nmore"}],
    "paths": {
        "/v1/pets": {
            "get": {
                "operationId": "listPets",
                "tags": ["pets"],
                "summary": "List pets",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "description": "Filter by status",
                        "schema": {"type": "string", "enum": ["available", "sold"], "default": "available"},
                    },
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "A page of pets",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "results": {
                                            "type": "array",
                                            "items": {"$ref": "#/components/schemas/Pet"},
                                        },
                                        "next": {"type": "string", "format": "uri"},
                                    },
                                }
                            }
                        },
                    },
                    "default": {"description": "Unexpected error"},
                },
            },
            "post": {
                "operationId": "createPet",
                "tags": ["pets"],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewPet"}}},
                },
                "responses": {"201": {"description": "created"}},
            },
        },
        "/v1/pets/{pet_id}": {
            "parameters": [{"name": "pet_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "get": {
                "operationId": "getPet",
                "responses": {
                    "200": {
                        "description": "one pet",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
                    }
                },
            },
            "delete": {
                "operationId": "deletePet",
                "security": [],
                "responses": {"204": {"description": "gone"}},
            },
            "put": {
                "operationId": "markPet",
                "deprecated": True,
                "x-apiatlas": {"side_effect": "read"},
                "responses": {"200": {"description": "ok"}},
            },
        },
    },
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Pet": {
                "type": "object",
                "required": ["id"],
                "properties": {
                    "id": {"type": "integer", "description": "Pet id"},
                    "name": {"type": "string"},
                    "born": {"type": "string", "format": "date-time"},
                    "owner": {"type": "object", "properties": {"owner_id": {"type": "integer"}}},
                },
            },
            "NewPet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "maxLength": 40},
                    "tag": {"type": "string", "enum": ["cat", "dog"]},
                },
            },
        },
    },
}


def test_operations_become_apis_with_located_params_and_response_fields(tmp_path: Path) -> None:
    catalog = load(write(tmp_path / "pets.yaml", PETSTORE))
    assert sorted(catalog.apis) == [
        "DELETE /v1/pets/{pet_id}",
        "GET /v1/pets",
        "GET /v1/pets/{pet_id}",
        "POST /v1/pets",
        "PUT /v1/pets/{pet_id}",
    ]
    listing = catalog.apis["GET /v1/pets"]
    assert listing.executor.kind == "http" and listing.executor.target == "GET /v1/pets"
    assert listing.extra["operation_id"] == "listPets"
    assert listing.extra["security"] == [{"bearer": []}]
    status = next(p for p in listing.params if p.name == "status")
    assert status.location == "query" and not status.required
    assert status.json_schema["enum"] == ["available", "sold"]
    assert status.json_schema["default"] == "available" and status.default == "available"
    assert status.description == "Filter by status"
    assert {p.name: p.location for p in listing.params}["X-Trace"] == "header"
    columns = {c.name: c for c in listing.output_tables[0].columns}
    assert set(columns) == {
        "results[].id",
        "results[].name",
        "results[].born",
        "results[].owner.owner_id",
        "next",
    }
    assert columns["results[].born"].domain_type == "string:date-time"
    assert columns["results[].id"].domain_type == "Pet"  # the id of the Pet schema
    assert columns["results[].id"].description == "Pet id"
    assert columns["results[].owner.owner_id"].domain_type == "integer:id"
    assert [e.code for e in listing.errors] == ["default"]
    path_param = catalog.apis["GET /v1/pets/{pet_id}"].params[0]
    assert (path_param.name, path_param.location, path_param.required) == ("pet_id", "path", True)
    assert path_param.domain_type == "Pet"  # GET on that path returns a Pet: the parameter names one
    assert catalog.stats["openapi"]["servers"] == ["https://pets.example/v1"]
    assert catalog.stats["openapi"]["security_schemes"]["bearer"]["scheme"] == "bearer"
    assert catalog.stats["openapi"]["operations_in_spec"] == 5 == catalog.stats["openapi"]["operations"]
    assert catalog.apis["DELETE /v1/pets/{pet_id}"].extra["security"] == []


def test_request_body_fields_are_body_params(tmp_path: Path) -> None:
    create = load(write(tmp_path / "pets.json", PETSTORE)).apis["POST /v1/pets"]
    params = {p.name: p for p in create.params}
    assert set(params) == {"name", "tag"}
    assert params["name"].location == "body" and params["name"].required
    assert params["name"].json_schema["maxLength"] == 40
    assert params["tag"].json_schema["enum"] == ["cat", "dog"] and not params["tag"].required
    body = create.extra["request_body"]
    assert body["content_type"] == "application/json" and body["required"] is True
    assert set(body["schema"]["properties"]) == {"name", "tag"}


def test_tags_become_objects_and_untagged_operations_use_the_first_path_segment(tmp_path: Path) -> None:
    catalog = load(write(tmp_path / "pets.yaml", PETSTORE))
    assert catalog.objects["pets"].title == "Everything about pets"
    assert catalog.apis["GET /v1/pets/{pet_id}"].object_key == "pets"  # 'v1' skipped: path segment 'pets'
    assert sorted(catalog.objects["pets"].api_keys) == sorted(catalog.apis)


def test_side_effects_from_the_method_overridable_per_operation(tmp_path: Path) -> None:
    catalog = load(write(tmp_path / "pets.yaml", PETSTORE))
    effects = {key: api.side_effect for key, api in catalog.apis.items()}
    assert effects["GET /v1/pets"] is SideEffect.READ
    assert effects["POST /v1/pets"] is SideEffect.WRITE
    assert effects["DELETE /v1/pets/{pet_id}"] is SideEffect.DESTRUCTIVE
    assert effects["PUT /v1/pets/{pet_id}"] is SideEffect.READ  # x-apiatlas: {side_effect: read}
    delete = catalog.apis["DELETE /v1/pets/{pet_id}"].annotations()
    assert delete["destructiveHint"] and delete["idempotentHint"] and not delete["readOnlyHint"]
    assert not catalog.apis["POST /v1/pets"].annotations()["idempotentHint"]


def test_bad_override_is_a_located_warning_and_the_method_wins(tmp_path: Path) -> None:
    spec = json.loads(json.dumps(PETSTORE))
    spec["paths"]["/v1/pets"]["post"]["x-apiatlas"] = {"side_effect": "harmless"}
    catalog = load(write(tmp_path / "pets.yaml", spec))
    assert catalog.apis["POST /v1/pets"].side_effect is SideEffect.WRITE
    found = [d for d in catalog.diagnostics if d.code is ReasonCode.BAD_CONFIG]
    assert len(found) == 1 and found[0].location.anchor == "POST /v1/pets" and "harmless" in found[0].message


def test_compile_config_overrides_side_effects_and_deprecated_operations_are_dropped(tmp_path: Path) -> None:
    spec = write(tmp_path / "pets.yaml", PETSTORE)
    config = tmp_path / "build.yaml"
    config.write_text(
        "side_effects:\n  listPets: write\n  'POST /v1/pets': destructive\n  noSuchOp: read\n",
        encoding="utf-8",
    )
    result = compile_docs(spec, overlays_dir=None, config_path=config, out=tmp_path / "pets.atlas")
    apis = result.catalog.apis
    assert apis["GET /v1/pets"].side_effect is SideEffect.WRITE
    assert apis["POST /v1/pets"].side_effect is SideEffect.DESTRUCTIVE
    assert not apis["PUT /v1/pets/{pet_id}"].funnel.kept  # deprecated
    assert apis["PUT /v1/pets/{pet_id}"].funnel.dropped_at == "not deprecated"
    assert [s["stage"] for s in result.catalog.stats["funnel"]] == ["not deprecated"]  # no bank name rule
    assert result.manifest.counts["kept_apis"] == 4
    unmatched = [d for d in result.catalog.diagnostics if d.code is ReasonCode.OVERLAY_UNMATCHED]
    assert [d.location.anchor for d in unmatched] == ["side_effects.noSuchOp"]


def test_cycles_are_cut_and_marked(tmp_path: Path) -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/nodes/{node_id}": {
                "get": {
                    "parameters": [
                        {"name": "node_id", "in": "path", "required": True, "schema": {"type": "integer"}},
                        {"name": "filter", "in": "query", "schema": {"$ref": "#/components/schemas/Node"}},
                    ],
                    "responses": {
                        "200": {
                            "description": "a tree",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Node"}}
                            },
                        }
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "id": {"type": ["integer", "null"]},
                        "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                        "partner": {"$ref": "#/components/schemas/Partner"},
                    },
                },
                "Partner": {"allOf": [{"$ref": "#/components/schemas/Node"}]},
                "Loop": {"$ref": "#/components/schemas/Loop"},
            }
        },
    }
    catalog = load(write(tmp_path / "tree.yaml", spec))
    api = catalog.apis["GET /nodes/{node_id}"]
    columns = {c.name: c for c in api.output_tables[0].columns}
    assert "recursive reference to Node (cut)" in columns["children[]"].description
    assert columns["id"].domain_type == "Node"
    assert catalog.stats["openapi"]["cycles_cut"] > 0
    filter_schema = next(p for p in api.params if p.name == "filter").json_schema
    assert filter_schema["properties"]["children"]["items"]["$comment"] == "recursive: Node"


def test_shared_references_do_not_blow_up(tmp_path: Path) -> None:
    """S0 refers to S1 twice, S1 to S2 twice, ...: 2**40 paths unless results are shared and bounded."""
    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/components/schemas/S{i + 1}"},
                "right": {"$ref": f"#/components/schemas/S{i + 1}"},
                "v": {"type": "string"},
            },
        }
        for i in range(40)
    }
    schemas["S40"] = {"type": "string"}
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/deep": {
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}
                    },
                    "responses": {
                        "200": {
                            "description": "",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}},
                        }
                    },
                }
            }
        },
        "components": {"schemas": schemas},
    }
    api = load(write(tmp_path / "deep.json", spec)).apis["POST /deep"]
    columns = [c.name for c in api.output_tables[0].columns]
    assert 0 < len(columns) <= MAX_COLUMNS
    assert "left.left.v" in columns
    assert any("nested levels omitted" in json.dumps(p.json_schema) for p in api.params)


def test_relative_refs_across_files(tmp_path: Path) -> None:
    write(tmp_path / "common" / "ids.yaml", {"PetId": {"type": "integer", "description": "a pet's id"}})
    write(
        tmp_path / "schemas" / "pet.yaml",
        {
            "Pet": {
                "type": "object",
                "properties": {"pet_id": {"$ref": "../common/ids.yaml#/PetId"}, "name": {"type": "string"}},
            }
        },
    )
    root = write(
        tmp_path / "api.yaml",
        {
            "openapi": "3.0.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/pets": {
                    "get": {
                        "parameters": [{"$ref": "./params.yaml#/limit"}],
                        "responses": {
                            "200": {
                                "description": "",
                                "content": {
                                    "application/json": {
                                        "schema": {
                                            "type": "array",
                                            "items": {"$ref": "schemas/pet.yaml#/Pet"},
                                        }
                                    }
                                },
                            }
                        },
                    }
                }
            },
        },
    )
    write(
        tmp_path / "params.yaml", {"limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}}
    )
    catalog = load(root)
    api = catalog.apis["GET /pets"]
    columns = {c.name: c for c in api.output_tables[0].columns}
    assert set(columns) == {"[].pet_id", "[].name"}
    assert (
        columns["[].pet_id"].description == "a pet's id" and columns["[].pet_id"].domain_type == "integer:id"
    )
    assert [p.name for p in api.params] == ["limit"]
    assert set(catalog.source_files) == {"api.yaml", "params.yaml", "schemas/pet.yaml", "common/ids.yaml"}


def test_broken_ref_is_a_located_diagnostic_not_a_crash(tmp_path: Path) -> None:
    spec = json.loads(json.dumps(PETSTORE))
    spec["paths"]["/v1/pets/{pet_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/Missing"
    }
    spec["paths"]["/v1/pets"]["get"]["parameters"].append({"$ref": "other.yaml#/nowhere"})
    catalog = load(write(tmp_path / "pets.yaml", spec))
    assert len(catalog.apis) == 5  # every operation still there
    broken = [d for d in catalog.diagnostics if d.code is ReasonCode.DANGLING_REFERENCE]
    assert {(d.location.file, d.location.anchor) for d in broken} == {
        ("pets.yaml", "GET /v1/pets/{pet_id}"),
        ("pets.yaml", "GET /v1/pets"),
    }
    assert all(d.severity is Severity.ERROR for d in broken)
    assert any("Missing" in d.message for d in broken) and any("other.yaml" in d.message for d in broken)


SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "Legacy", "version": "0.9"},
    "host": "legacy.example",
    "basePath": "/api",
    "schemes": ["https"],
    "consumes": ["application/json"],
    "securityDefinitions": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
    "paths": {
        "/users": {
            "post": {
                "operationId": "addUser",
                "parameters": [
                    {
                        "name": "body",
                        "in": "body",
                        "required": True,
                        "schema": {"$ref": "#/definitions/User"},
                    },
                    {"name": "dry", "in": "query", "type": "boolean", "default": False},
                ],
                "responses": {"200": {"description": "the user", "schema": {"$ref": "#/definitions/User"}}},
            }
        },
        "/users/{id}/avatar": {
            "put": {
                "consumes": ["multipart/form-data"],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "type": "string", "format": "uuid"},
                    {"name": "file", "in": "formData", "type": "file", "required": True},
                    {"name": "caption", "in": "formData", "type": "string"},
                ],
                "responses": {"204": {"description": "stored"}},
            }
        },
    },
    "definitions": {
        "User": {
            "type": "object",
            "required": ["email"],
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "email": {"type": "string", "format": "email"},
                "roles": {"type": "array", "items": {"type": "string", "enum": ["admin", "user"]}},
            },
        }
    },
}


def test_swagger_2_body_and_form_parameters(tmp_path: Path) -> None:
    catalog = load(write(tmp_path / "legacy.json", SWAGGER))
    add = catalog.apis["POST /users"]
    params = {p.name: p for p in add.params}
    assert params["dry"].location == "query" and params["dry"].json_schema["type"] == "boolean"
    assert params["email"].location == "body" and params["email"].required
    assert params["email"].domain_type == "string:email"
    assert params["roles"].json_schema["items"]["enum"] == ["admin", "user"]
    assert add.extra["request_body"]["content_type"] == "application/json"
    assert {c.name for c in add.output_tables[0].columns} == {"id", "email", "roles[]"}
    avatar = catalog.apis["PUT /users/{id}/avatar"]
    form = {p.name: p for p in avatar.params if p.location == "body"}
    assert set(form) == {"file", "caption"} and form["file"].required and not form["caption"].required
    assert avatar.extra["request_body"]["content_type"] == "multipart/form-data"
    assert catalog.stats["openapi"]["servers"] == ["https://legacy.example/api"]
    assert catalog.stats["openapi"]["security_schemes"]["key"]["name"] == "X-Key"
    assert catalog.stats["openapi"]["spec_version"] == "2.0"


def test_detects_spec_files_and_nothing_else(tmp_path: Path) -> None:
    assert detect_source(write(tmp_path / "a.json", SWAGGER)) == "openapi"
    assert detect_source(write(tmp_path / "b.yaml", PETSTORE)) == "openapi"
    assert detect_source(write(tmp_path / "c.yml", PETSTORE)) == "openapi"
    plain = write(tmp_path / "d.json", {"name": "not a spec", "paths": {}})
    with pytest.raises(Exception, match="not a source apiatlas recognises"):
        detect_source(plain)


def test_invalid_yaml_and_wrong_version_are_located_source_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("openapi: 3.0.0\npaths:\n  /a: [unclosed\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load(bad)
    assert caught.value.location.file == "bad.yaml" and caught.value.location.line is not None
    old = write(tmp_path / "old.json", {"swagger": "1.2", "paths": {}})
    with pytest.raises(SourceError, match=r"not an OpenAPI 3\.x or Swagger 2\.0 spec"):
        load(old)


def test_html_in_descriptions_becomes_plain_text_and_placeholders_stay(tmp_path: Path) -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Shop", "version": "1"},
        "paths": {
            "/v1/products": {
                "get": {
                    "description": '<p>Returns a list of your products &amp; <a href="/docs">their</a> '
                    "<code>prices</code>.</p><p>Pages of a &lt;pool&gt; of <pool> results.</p>",
                    "parameters": [
                        {"name": "limit", "in": "query", "description": "<p>At most <em>100</em>.</p>",
                         "schema": {"type": "integer"}},
                    ],
                    "responses": {"200": {"description": "<p>OK</p>", "content": {"application/json": {
                        "schema": {"type": "object", "properties": {
                            "name": {"type": "string", "description": "The <strong>name</strong>."}}}}}}},
                }
            }
        },
    }  # fmt: skip
    api = load(write(tmp_path / "shop.json", spec)).apis["GET /v1/products"]
    assert api.title == "Returns a list of your products & their prices."
    assert api.description == (
        "Returns a list of your products & their prices.\n\nPages of a <pool> of <pool> results."
    )
    assert api.params[0].description == "At most 100."
    assert api.output_tables[0].columns[0].description == "The name."
