"""`apiatlas plan` and `apiatlas eval chains`: plans from the command line, figures against gold chains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_chains  # registers `eval chains`
import apiatlas.commands.plan  # noqa: F401  (registers `plan`)
from apiatlas.build import compile_docs, default_overlays_dir
from apiatlas.cli_app import app
from apiatlas.planning.evaluation import CaseRun, GoldCase, figures, is_subsequence
from shared_data import shared

REPO = Path(__file__).resolve().parents[1]
BANK_DOCS = REPO / "examples" / "bank" / "docs"
RESTBENCH = shared("restbench")
needs_restbench = pytest.mark.skipif(
    not (RESTBENCH / "tmdb_queries.json").exists(), reason="RestBench absent"
)


def test_correct_path_means_the_gold_calls_in_order() -> None:
    assert is_subsequence(("a", "c"), ("a", "b", "c"))
    assert not is_subsequence(("c", "a"), ("a", "b", "c"))
    case = GoldCase("q", "text", ("a", "c"))
    runs = [CaseRun(case, ("a", "b", "c"), 1.0), CaseRun(case, ("a", "c"), 3.0), CaseRun(case, ("c",), 2.0)]
    got = figures(runs)
    assert (got["cases"], got["exact_match"], got["correct_path"]) == (3, round(1 / 3, 4), round(2 / 3, 4))
    assert got["mean_extra_steps"] == round(1 / 3, 4)


def test_plan_confidence_is_counted_as_eval_plan_confidence_judges_it() -> None:
    # right = exact match: one right and held back, one wrong and confident, one wrong and held back
    case = GoldCase("q", "text", ("a", "c"))
    runs = [
        CaseRun(case, ("a", "c"), 1.0, confident=False),
        CaseRun(case, ("a", "b", "c"), 1.0, confident=True),
        CaseRun(case, ("c",), 1.0, confident=False),
        CaseRun(case, ("a", "c"), 1.0, confident=True),
    ]
    got = figures(runs)
    assert (got["wrong_confident"], got["right_held_back"]) == (0.25, 0.5)
    assert figures([CaseRun(case, ("c",), 1.0, confident=True)])["right_held_back"] == 0.0


def test_eval_chains_on_the_sample_bank(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "chains", "--dataset", "bank", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    every = report["all"]
    assert 0.0 <= every["wrong_confident"] <= 1.0 and 0.0 <= every["right_held_back"] <= 1.0
    assert every["cases"] == 60 == report["development"]["cases"] + report["held_out"]["cases"]
    assert 0.6 <= every["exact_match"] <= every["correct_path"] <= 1.0
    wrong = round(every["cases"] * (1 - every["exact_match"]))
    assert len(report["misses"]) + report["held_out_misses"] == wrong
    dev = report["development"]
    assert len(report["misses"]) == round(dev["cases"] * (1 - dev["exact_match"]))  # development misses only
    print("bank:", {k: every[k] for k in ("exact_match", "correct_path", "latency_p95_ms")})


@needs_restbench
def test_eval_chains_on_restbench_tmdb() -> None:
    spec, queries = RESTBENCH / "tmdb_oas.json", RESTBENCH / "tmdb_queries.json"
    result = CliRunner().invoke(app, ["eval", "chains", "--dataset", "restbench", str(spec), str(queries)])
    assert result.exit_code == 0, result.output
    assert "exact_match" in result.output and "held-out" in result.output
    report = json.loads(
        CliRunner()
        .invoke(app, ["eval", "chains", "--dataset", "restbench", str(spec), str(queries), "--json"])
        .output
    )
    every = report["all"]
    assert (
        every["cases"] == 100
        and every["correct_path"] >= 0.3
        and every["exact_match"] <= every["correct_path"]
    )
    print("restbench:", {k: every[k] for k in ("exact_match", "correct_path", "mean_extra_steps")})


def test_eval_chains_bad_queries_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "queries.json"
    bad.write_text("[{", encoding="utf-8")
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.0.0",
                "info": {"title": "t", "version": "1"},
                "paths": {
                    "/pets": {"get": {"summary": "List pets", "responses": {"200": {"description": "ok"}}}}
                },
            }
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["eval", "chains", "--dataset", "restbench", str(spec), str(bad)])
    assert result.exit_code == 1 and "queries.json" in result.output


@pytest.fixture(scope="module")
def bank_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plan_cli") / "bank.atlas"
    compile_docs(
        BANK_DOCS, overlays_dir=default_overlays_dir(BANK_DOCS), config_path=None, out=out, write_report=False
    )
    return out


def test_plan_cli_prints_the_chain_and_its_execute_chain_steps(bank_snapshot: Path) -> None:
    result = CliRunner().invoke(
        app, ["plan", str(bank_snapshot), "сделки клиента Михалова по ценным бумагам", "--json"]
    )
    assert result.exit_code == 0, result.output
    plan = json.loads(result.output)
    steps = plan["execute_chain_steps"]
    assert [s["api"] for s in steps][-1] == "API_DealSecurity_FindListByID" and len(steps) == 4
    assert steps[0]["args"] == {"SurName": "Михалов"}
    text = CliRunner().invoke(
        app, ["plan", str(bank_snapshot), "вклады клиента", "--known", "OnlyOpenFlag=1"]
    )
    assert text.exit_code == 0 and "ASK THE USER" in text.output
    unknown = CliRunner().invoke(app, ["plan", str(bank_snapshot), "x", "--target", "API_Nope"])
    assert unknown.exit_code == 1 and "UNKNOWN_API" in unknown.output
    bad = CliRunner().invoke(app, ["plan", str(bank_snapshot), "x", "--known", "novalue"])
    assert bad.exit_code != 0
