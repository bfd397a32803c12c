"""The code evaluations over a small SDK compiled by mcs: ``eval retrieval --dataset code`` (the
documentation-ID matching rule, dev/test and Russian splits) and ``eval check-code`` (precision, recall);
``info`` lists the entities by kind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_code
import apiatlas.commands.eval_retrieval
import apiatlas.commands.info  # noqa: F401  (registers the commands)
from apiatlas.build import compile_docs
from apiatlas.cli_app import app
from apiatlas.evals.code_retrieval import ranked_paths
from dotnet_fixture import build_sdk

REQUESTS = [
    {"query": "Canvas.Add", "solution": ["Geometry.Shapes.Canvas.Add"]},
    {"query": "create a canvas of a given size", "solution": ["Geometry.Shapes.Canvas.#ctor"]},
    {"query": "радиус круга", "solution": ["Geometry.Shapes.Circle.Radius"]},
    {"query": "Circle", "solution": ["Geometry.Shapes.Circle"]},
]
CASES = [
    {
        "code": "using Geometry.Shapes;\nclass A { void M() { var c = new Circle(1.0); c.MoveTo(1, 2); } }",
        "unknown": [],
    },
    {
        "code": "using Geometry.Shapes;\nclass A { void M() { var c = new Circle(1.0); c.Spin(); } }",
        "unknown": ["Geometry.Shapes.Circle.Spin"],
    },
    {
        "code": "using Geometry.Shapes;\nclass A { void M(Canvas k) { k.Add(null, 1); } }",
        "unknown": ["Geometry.Shapes.Canvas.Add"],
    },
]


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("mcs") is None:
        pytest.skip("Mono's C# compiler (mcs) is not installed: ./run test installs mono-mcs")
    folder = build_sdk(tmp_path_factory.mktemp("sdk"))
    out = folder.parent / "shapes.atlas"
    compile_docs(folder, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return out


def test_hits_match_solutions_without_prefix_or_parameters() -> None:
    keys = ["M:Gtk.Window.#ctor(System.String)", "M:Gtk.Window.#ctor", "T:GLib.List`1", "P:Gtk.Window.Title"]
    assert ranked_paths(keys) == ["Gtk.Window.#ctor", "GLib.List", "Gtk.Window.Title"]


def test_eval_retrieval_code(snapshot: Path, tmp_path: Path) -> None:
    requests = tmp_path / "requests.json"
    requests.write_text(json.dumps(REQUESTS, ensure_ascii=False), encoding="utf-8")
    args = ["eval", "retrieval", "--dataset", "code", str(snapshot), str(requests), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    lexical = report["modes"]["lexical"]  # compiled without vectors: words and exact names only
    assert report["queries"] == 4 and report["russian"] == 1
    assert lexical["all"]["queries"] == 4 and lexical["dev"]["queries"] + lexical["test"]["queries"] == 4
    assert lexical["english"]["recall@1"] >= 2 / 3  # the two names are found first, exactly
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps([{"query": "x", "solution": ["Geometry.Shapes.Canvas.Nope"]}]), encoding="utf-8"
    )
    refused = CliRunner().invoke(app, ["eval", "retrieval", "--dataset", "code", str(snapshot), str(bad)])
    assert refused.exit_code == 1 and "has no Geometry.Shapes.Canvas.Nope" in refused.output


def test_eval_check_code(snapshot: Path, tmp_path: Path) -> None:
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(CASES), encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", "check-code", str(snapshot), str(cases), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["all"] | {"latency_p50_ms": 0, "latency_p95_ms": 0} == {
        "cases": 3,
        "precision": 1.0,
        "recall": 1.0,
        "exact_cases": 1.0,
        "latency_p50_ms": 0,
        "latency_p95_ms": 0,
    }


def test_info_lists_entities_by_kind(snapshot: Path) -> None:
    result = CliRunner().invoke(app, ["info", str(snapshot)])
    assert result.exit_code == 0, result.output
    assert "Entities by kind" in result.output and "constructor" in result.output


def test_compile_include_internal(tmp_path: Path) -> None:
    if shutil.which("mcs") is None:
        pytest.skip("Mono's C# compiler (mcs) is not installed: ./run test installs mono-mcs")
    import apiatlas.commands.compile  # noqa: F401  (registers the command)

    folder = build_sdk(tmp_path / "sdk")
    out = tmp_path / "wide.atlas"
    args = ["compile", str(folder), "-o", str(out), "--embeddings", "none", "--include-internal"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    from apiatlas.snapshot import Snapshot

    with Snapshot.open(out) as snap:
        assert snap.get_api("M:Geometry.Shapes.Canvas.Clear") is not None  # internal, kept on request
        assert snap.manifest()["pass_stats"]["dotnet"]["include_internal"] is True


def test_bench_code_prints_latencies(snapshot: Path, tmp_path: Path) -> None:
    import apiatlas.commands.bench_code  # noqa: F401  (registers the command)

    draft = tmp_path / "draft.cs"
    draft.write_text(CASES[1]["code"], encoding="utf-8")
    requests = tmp_path / "requests.json"
    requests.write_text(json.dumps(REQUESTS, ensure_ascii=False), encoding="utf-8")
    args = [
        "bench",
        "code",
        str(snapshot),
        "--draft",
        str(draft),
        "--requests",
        str(requests),
        "--repeat",
        "3",
    ]
    result = CliRunner().invoke(app, [*args, "--no-compile"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["unknown"] == ["Geometry.Shapes.Circle.Spin"] and figures["search_requests"] == 4
    assert figures["check_code_p50_ms"] > 0 and "compile_ms" not in figures
