"""NESTFUL's spec format compiled into a snapshot (real compile, real planner) and `eval chains
--dataset nestful SPEC DATA`: sequence match, correct path and binding accuracy as the issue defines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_chains  # noqa: F401  (registers `eval chains`)
from apiatlas.build import compile_docs
from apiatlas.cli_app import app
from apiatlas.errors import SourceError
from apiatlas.evals.nestful import GoldBinding, align, bound, held_back, nestful_cases, normal_field
from apiatlas.planning.model import CandidateChain, InputSource, PlannedStep
from apiatlas.snapshot import Snapshot
from apiatlas.sources import detect_source, load_source

SPEC = [
    {
        "name": "Music_Search_Artist",
        "description": "Search an artist by name and get the artist id.",
        "method": "GET", "endpoint": "/v1/artist/search", "host": "music.example.com",
        "query_parameters": {"name": {"type": "String", "description": "Artist name", "required": True}},
        "output_parameters": {
            "artist_id": {"type": "String", "description": "Unique id of the artist."},
            "name": {"type": "String", "description": "Name of the artist."},
        },
    },
    {
        "name": "Music_Artist_Albums",
        "description": "List the albums of an artist.",
        "method": "GET", "endpoint": "/v1/artist/albums", "host": "music.example.com",
        "query_parameters": {"artist_id": {"type": "String", "description": "Artist id", "required": True}},
        "output_parameters": {
            "albums": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "string"}, "title": {"type": "string"}}}},
        },
    },
    {
        "name": "Weather_Now",
        "description": "Current weather for a city.",
        "method": "GET", "endpoint": "/current.json", "host": "weather.example.com",
        "path_parameters": {
            "q": {"type": "String", "description": "City name", "required": True},
            "units": {"type": "String", "required": True, "possible_values": ["metric", "imperial"]},
        },
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "String"}, "localtime": {"type": "String"}}}},
    },
]  # fmt: skip
DATA = [
    {
        "input": "List the albums of the artist Adele",
        "output": [
            {"name": "Music_Search_Artist", "arguments": {"name": "Adele"}, "label": "var1"},
            {"name": "Music_Artist_Albums", "arguments": {"artist_id": "$var1.artist_id$"}, "label": "var2"},
            {"name": "var_result", "arguments": {"albums": "$var2$"}},
        ],
    },
    {
        "input": "What is the current weather in Oslo",
        "output": [{"name": "Weather_Now", "arguments": {"q": "Oslo"}, "label": "var1"}],
    },
]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    spec, data = tmp_path / "spec.json", tmp_path / "data.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    data.write_text(json.dumps(DATA), encoding="utf-8")
    return spec, data


def test_the_spec_loads_as_apis_with_outputs_flattened(files: tuple[Path, Path]) -> None:
    spec, _ = files
    assert detect_source(spec) == "nestful"
    catalog = load_source(spec)
    albums = catalog.apis["Music_Artist_Albums"]
    assert [c.name for c in albums.output_tables[0].columns] == ["albums[].id", "albums[].title"]
    assert albums.params[0].name == "artist_id" and albums.params[0].required
    weather = catalog.apis["Weather_Now"]
    assert weather.params[0].location == "path"
    assert weather.params[1].json_schema["enum"] == ["metric", "imperial"]  # NESTFUL's possible_values
    out = spec.with_suffix(".atlas")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:  # the spec's own schemas survive the types pass
        units = snap.get_api("Weather_Now").params[1]  # type: ignore[union-attr]
        assert units.json_schema["enum"] == ["metric", "imperial"]
    assert [c.name for c in weather.output_tables[0].columns] == ["location.name", "location.localtime"]


def test_eval_chains_nestful_reports_the_three_figures_on_both_halves(files: tuple[Path, Path]) -> None:
    spec, data = files
    args = ["eval", "chains", "--dataset", "nestful", str(spec), str(data), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    every = report["all"]
    assert every["cases"] == 2 and every["gold_bindings"] == 1
    assert report["development"]["cases"] + report["held_out"]["cases"] == 2
    for name in ("sequence_match", "correct_path", "binding_accuracy"):
        assert 0.0 <= every[name] <= 1.0
    assert every["sequence_match"] <= every["correct_path"]


def test_a_gold_step_the_spec_lacks_is_a_located_error(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text(json.dumps([{"input": "x", "output": [{"name": "Nope", "arguments": {}}]}]))
    with pytest.raises(SourceError, match="no API Nope"):
        nestful_cases(data, {"Weather_Now"})


def _step(api: str, *inputs: InputSource) -> PlannedStep:
    return PlannedStep(api=api, inputs=list(inputs))


def test_a_binding_counts_only_from_the_matched_step_and_the_same_field() -> None:
    gold = ("Search", "Search", "Flights")
    planned = ["Other", "Search", "Search", "Flights"]
    matched = align(gold, planned)
    assert matched == {0: 1, 1: 2, 2: 3}
    feed = InputSource(name="to", origin="step", from_step=2, from_table="response", from_field="skyId")
    chain = CandidateChain(
        steps=[_step("Other"), _step("Search"), _step("Search"), _step("Flights", feed)],
        score=1.0, entry_point="Other", target="Flights", confidence=1.0,
    )  # fmt: skip
    assert bound(GoldBinding(2, "to", 1, "skyId"), chain, matched)
    assert not bound(GoldBinding(2, "to", 0, "skyId"), chain, matched)  # the other search step
    assert not bound(GoldBinding(2, "to", 1, "entityId"), chain, matched)
    assert normal_field("author[0].id") == "author[].id"


def test_the_split_is_deterministic_and_half() -> None:
    qids = [f"nestful:{n}" for n in range(85)]
    held = held_back(qids)
    assert len(held) == 42 and held == held_back(list(reversed(qids)))


def test_an_unflagged_parameter_is_required_where_its_entry_flags_the_optional_ones(tmp_path: Path) -> None:
    """NESTFUL flags either the required parameters (``"required": true``) or the optional ones
    (``"optional": true``); in an entry of the second kind a parameter with neither flag is required."""
    entries = [
        {"name": "Social_Search_User", "description": "Search users by name.", "method": "GET",
         "endpoint": "/search", "host": "social.example.com",
         "query_parameters": {"search_query": {"type": "String", "description": "A user's name."},
                              "embed_safe": {"type": "Boolean", "optional": True}},
         "output_parameters": {"username": {"type": "String"}}},
        {"name": "Social_Posts", "description": "Posts of a user.", "method": "GET",
         "endpoint": "/posts", "host": "social.example.com",
         "query_parameters": {"username": {"type": "String", "required": True},
                              "cursor": {"type": "String"}},
         "output_parameters": {"text": {"type": "String"}}},
    ]  # fmt: skip
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(entries), encoding="utf-8")
    catalog = load_source(spec)
    search = {p.name: p.required for p in catalog.apis["Social_Search_User"].params}
    posts = {p.name: p.required for p in catalog.apis["Social_Posts"].params}
    assert search == {"search_query": True, "embed_safe": False}
    assert posts == {"username": True, "cursor": False}  # this entry flags the required ones
