"""`eval retrieval --unrelated`: requests no API serves, searched on the whole catalog and on the folds,
next to the related requests' recall and their wrong abstentions (real spec, real compile, real search)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_retrieval  # noqa: F401  (registers `eval retrieval`)
from apiatlas.cli_app import app
from apiatlas.errors import SourceError
from apiatlas.evals.dataset import EvalQuery
from apiatlas.evals.full_catalog import full_catalog_figures
from apiatlas.evals.openapi_requests import load_openapi_requests
from apiatlas.evals.runner import build_eval_snapshot
from apiatlas.evals.runs import QueryRun, Runs
from apiatlas.evals.unrelated import UNRELATED, load_unrelated, with_unrelated
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
from apiatlas.search.tuning import CALIBRATED
from apiatlas.snapshot.reader import Snapshot
from shared_data import SHARED_DATA, needs_shared, shared

NOTES_SPEC = """\
openapi: 3.0.0
info: {title: Notes, version: '1'}
paths:
  /notes:
    get:
      summary: List notes
      description: All notes of the workspace, newest first.
      responses: {'200': {description: ok}}
    post:
      summary: Create a note
      description: Write a new note with a title and a body.
      responses: {'201': {description: ok}}
  /notes/{note_id}:
    get:
      summary: Show a note
      description: One note by its id.
      parameters: [{name: note_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
    delete:
      summary: Delete a note
      parameters: [{name: note_id, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
  /tags:
    get:
      summary: List tags
      description: The tags notes are filed under.
      responses: {'200': {description: ok}}
"""
REQUESTS = [
    {"query": "list all notes", "solution": ["GET /notes"]},
    {"query": "show the note abc", "solution": ["GET /notes/{note_id}"]},
    {"query": "create a note about the meeting", "solution": ["POST /notes"]},
    {"query": "delete the note abc", "solution": ["DELETE /notes/{note_id}"]},
    {"query": "which tags are there", "solution": ["GET /tags"]},
]
UNRELATED_REQUESTS = [
    {"query": "order a pepperoni pizza"},
    {"query": "call a taxi to the airport", "note": "everyday life"},
    {"query": "weather in Berlin tomorrow"},
    {"query": "list all notes of the workspace"},  # served, though the file says unrelated: it must answer
]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    spec, requests, unrelated = (
        tmp_path / "notes.yaml",
        tmp_path / "requests.json",
        tmp_path / "unrelated.json",
    )
    spec.write_text(NOTES_SPEC, encoding="utf-8")
    requests.write_text(json.dumps(REQUESTS), encoding="utf-8")
    unrelated.write_text(json.dumps(UNRELATED_REQUESTS), encoding="utf-8")
    return spec, requests, unrelated


def test_unrelated_requests_load_as_out_of_catalog_requests(files: tuple[Path, Path, Path]) -> None:
    _, _, unrelated = files
    queries = load_unrelated(unrelated)
    assert [q.text for q in queries] == [r["query"] for r in UNRELATED_REQUESTS]
    assert all(q.kind == UNRELATED and not q.gold for q in queries)
    assert len({q.qid for q in queries}) == len(queries)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"query": "x"}, "expected a non-empty JSON list"),
        ([], "expected a non-empty JSON list"),
        ([{"query": "  "}], r"request 0: needs a non-empty 'query' string"),
        (["pizza"], r"request 0: needs a non-empty 'query' string"),
        (
            [{"query": "pizza"}, {"query": "notes", "solution": ["GET /notes"]}],
            r"request 1 \('notes'\) has a",
        ),
    ],
)
def test_malformed_unrelated_file_is_a_located_error(tmp_path: Path, body: object, expected: str) -> None:
    path = tmp_path / "unrelated.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(SourceError, match=expected) as caught:
        load_unrelated(path)
    assert caught.value.location is not None and caught.value.location.file == str(path)


def test_an_unrelated_request_that_is_also_a_related_one_is_refused(files: tuple[Path, Path, Path]) -> None:
    spec, requests, unrelated = files
    unrelated.write_text(json.dumps([{"query": "List  all notes"}]), encoding="utf-8")
    with pytest.raises(SourceError, match="'List all notes' is also the dataset's request requests:0"):
        with_unrelated(load_openapi_requests(spec, requests), unrelated)


def test_eval_retrieval_reports_unrelated_abstention_on_the_whole_catalog(
    files: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    spec, requests, unrelated = files
    args = [
        "eval",
        "retrieval",
        "--dataset",
        "openapi",
        str(spec),
        str(requests),
        "--unrelated",
        str(unrelated),
    ]
    result = CliRunner().invoke(app, [*args, "--embedding", "none", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["queries"] == 5 and report["out_of_catalog_requests"] == 4
    full = report["modes"]["lexical"]["full_catalog"]
    counts = full["out_of_catalog"][UNRELATED]
    assert counts["requests"] == 4 and counts["abstained"] + counts["answered"] == 4
    assert full["related"] == 5 and 0 <= full["related_abstained"] <= 5
    assert full["related_recall@5_with_abstention"] <= full["related_recall@5"]
    answered = {row["query"] for row in full["out_of_catalog_answered"]}
    assert len(answered) == counts["answered"]
    # no word of a pizza, a taxi or the weather is in the catalog: no hit at all, an abstention
    assert not answered & {
        "order a pepperoni pizza",
        "call a taxi to the airport",
        "weather in Berlin tomorrow",
    }
    assert "list all notes of the workspace" in answered
    # the unrelated requests also run on the folds' snapshots, reported per kind
    kinds = report["modes"]["lexical"]["by_kind"]
    assert sum(kinds[half].get(UNRELATED, {"requests": 0})["requests"] for half in ("dev", "test")) == 4
    # ... and on the whole catalog per half, the halves adding up to the whole
    halves = report["modes"]["lexical"]["full_catalog_by_half"]
    for field in ("requests", "abstained", "answered"):
        per_half = [halves[h]["out_of_catalog"].get(UNRELATED, {field: 0})[field] for h in ("dev", "test")]
        assert sum(per_half) == counts[field]
    assert halves["dev"]["related"] + halves["test"]["related"] == 5

    # the figures are the search tool's own decisions on the catalog as compiled for the eval
    evalset = with_unrelated(load_openapi_requests(spec, requests), unrelated)
    path = build_eval_snapshot(evalset, tmp_path / "check.atlas", None, CALIBRATED, cache=None)
    with Snapshot.open(path) as snap:
        search = HybridSearch(snap, None, CALIBRATED)
        outcomes = {q.text: search.search(q.text, mode=SearchMode.LEXICAL) for q in evalset.queries}
    assert answered == {r["query"] for r in UNRELATED_REQUESTS if not outcomes[r["query"]].abstained}
    wrongly = {row["query"] for row in full["related_abstained_requests"]}
    assert wrongly == {r["query"] for r in REQUESTS if outcomes[r["query"]].abstained}

    table = CliRunner().invoke(app, [*args, "--embedding", "none"])
    assert table.exit_code == 0, table.output
    assert "on the whole catalog" in table.output and "unrelated" in table.output
    assert "whole dev" in table.output and "related: R@5 lost" in table.output
    assert "answered (lexical): 'list all notes of the workspace'" in table.output


def test_eval_retrieval_without_unrelated_still_counts_wrong_abstentions(
    files: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    spec, requests, _ = files
    args = ["eval", "retrieval", "--dataset", "openapi", str(spec), str(requests), "--embedding", "none"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "on the whole catalog" in result.output and "answered (" not in result.output
    report = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert report["out_of_catalog_requests"] == 0
    assert report["modes"]["lexical"]["full_catalog"]["out_of_catalog"] == {}


def test_eval_retrieval_bad_unrelated_file_is_a_clear_error(files: tuple[Path, Path, Path]) -> None:
    spec, requests, unrelated = files
    unrelated.write_text("[{not json", encoding="utf-8")
    args = ["eval", "retrieval", "--dataset", "openapi", str(spec), str(requests), "--embedding", "none"]
    result = CliRunner().invoke(app, [*args, "--unrelated", str(unrelated)])
    assert result.exit_code == 1
    assert "cannot read the unrelated requests" in result.output and "unrelated.json" in result.output


def _run(qid: str, gold: frozenset[str], top: str | None, exact: bool = False) -> QueryRun:
    hits = (
        [SearchResultHit(api_key=top, object_key="", title="", score=1.0, why="", exact=exact)] if top else []
    )
    outcome = SearchOutcome(query=qid, mode=SearchMode.HYBRID, ranked=hits)
    return QueryRun(EvalQuery(qid=qid, text=qid, gold=gold, kind="" if gold else UNRELATED), outcome, 0.0)


def test_full_catalog_figures_count_abstentions_per_side() -> None:
    runs = Runs(
        full=[_run("a", frozenset({"A"}), "A", exact=True), _run("b", frozenset({"B"}), None)],
        own_full=[_run("u1", frozenset(), None), _run("u2", frozenset(), "A", exact=True)],
    )
    got = full_catalog_figures(runs, CALIBRATED)
    # no hit at all always abstains; an exact name never does
    assert (got["related"], got["related_abstained"]) == (2, 1)
    assert got["related_recall@5"] == 0.5 == got["related_recall@5_with_abstention"]
    assert got["out_of_catalog"] == {UNRELATED: {"requests": 2, "abstained": 1, "answered": 1}}
    assert [r["id"] for r in got["out_of_catalog_answered"]] == ["u2"]
    assert [r["id"] for r in got["related_abstained_requests"]] == ["b"]


@needs_shared(shared("openapi"), shared("restbench"), shared("stabletoolbench"))
def test_calibration_with_http_adds_the_http_development_sets_with_their_unrelated_requests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from apiatlas.commands import eval_retrieval

    monkeypatch.setattr(eval_retrieval, "_shared_data", lambda: SHARED_DATA)
    shipped = eval_retrieval.calibration_sets()
    assert [e.name for e in shipped] == ["stabletoolbench", "restbench", "bank"]
    extra = eval_retrieval.calibration_sets(with_http=True)[len(shipped) :]
    # every HTTP spec family with its requests and an unrelated set of at least 30 requests
    assert [e.name for e in extra] == [
        "openapi:slack_web_openapi_v2.json",
        "openapi:kubernetes.swagger.json",
        "openapi:stripe-2023-09.spec3.yaml",
    ]
    for evalset in extra:
        unrelated = [q for q in evalset.queries if q.kind == UNRELATED]
        assert len(unrelated) >= 30 and all(not q.gold for q in unrelated)
        assert sum(1 for q in evalset.queries if q.gold) >= 90
