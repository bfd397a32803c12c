"""The big real specs: every operation present, compile from the CLI, the benchmark's JSON figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import apiatlas.cli  # noqa: F401  (registers every command on the app)
from apiatlas.cli_app import app
from apiatlas.snapshot.reader import Snapshot
from apiatlas.sources import detect_source, load_source
from shared_data import SHARED_DATA, needs_shared

DATA = SHARED_DATA
SPECS = [
    DATA / "openapi" / "kubernetes.swagger.json",
    DATA / "openapi" / "stripe-2023-09.spec3.yaml",
    DATA / "openapi" / "slack_web_openapi_v2.json",
    DATA / "restbench" / "tmdb_oas.json",
]
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
needs_data = needs_shared(*SPECS)


def operations_written(spec: Path) -> set[str]:
    """``METHOD /path`` of every operation, read here with plain json/yaml (independent of the source)."""
    text = spec.read_text(encoding="utf-8")
    doc = json.loads(text) if spec.suffix == ".json" else yaml.load(text, Loader=yaml.CSafeLoader)
    return {f"{m.upper()} {path}" for path, item in doc["paths"].items() for m in item if m in METHODS}


@needs_data
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_operation_of_the_spec_is_an_api(spec: Path) -> None:
    assert detect_source(spec) == "openapi"
    catalog = load_source(spec)
    written = operations_written(spec)
    assert set(catalog.apis) == written
    assert catalog.stats["openapi"]["operations_in_spec"] == len(written)
    assert not [d for d in catalog.diagnostics if d.severity.value == "error"]
    assert all(
        api.executor.kind == "http" and api.executor.target == key for key, api in catalog.apis.items()
    )


@needs_data
def test_kubernetes_path_and_query_params_keep_their_locations() -> None:
    catalog = load_source(SPECS[0])
    api = catalog.apis["GET /api/v1/namespaces/{namespace}/pods/{name}"]
    locations = {p.name: p.location for p in api.params}
    assert locations["namespace"] == "path" and locations["name"] == "path" and locations["pretty"] == "query"
    assert api.extra["operation_id"] == "readCoreV1NamespacedPod"
    assert "metadata.name" in {c.name for c in api.output_tables[0].columns}


@needs_data
def test_compile_command_takes_a_spec_file(tmp_path: Path) -> None:
    out = tmp_path / "tmdb.atlas"
    result = CliRunner().invoke(app, ["compile", str(SPECS[3]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Operations: 54 APIs from 54 operations in the spec (all present)" in " ".join(
        result.output.split()
    )
    with Snapshot.open(out) as snap:
        assert snap.counts()["apis"] == 54
        api = snap.get_api("GET /person/{person_id}")
        assert api is not None and api.executor.kind == "http"
        assert [(p.name, p.location, p.required) for p in api.params if p.location == "path"] == [
            ("person_id", "path", True)
        ]
        assert api.extra["operation_id"] == "GET_person-person_id"
        producers = {e.producer for e in snap.edges_into("GET /person/{person_id}")}
        assert "GET /search/person" in producers


@needs_data
def test_bench_openapi_prints_json_figures() -> None:
    result = CliRunner().invoke(app, ["bench", "openapi", str(SPECS[2]), str(SPECS[3]), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["specs"]
    assert [Path(f["spec"]).name for f in figures] == [SPECS[2].name, SPECS[3].name]
    for f in figures:
        assert f["all_present"] and f["operations_found"] == f["operations_in_spec"] > 0
        assert set(f["seconds"]) >= {"read_spec", "parse", "passes", "snapshot", "report", "total"}
        assert f["seconds"]["total"] >= f["seconds"]["parse"]
        assert f["snapshot_bytes"] > 0
