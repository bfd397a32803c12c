"""Per-catalog search settings: `eval retrieval --fit --save-settings` -> `compile --search-settings`.

Real sample bank docs, compiled lexical-only (`--embeddings none`) to keep it fast; the search of the
compiled snapshot reads the settings from its manifest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from typer.testing import CliRunner

import apiatlas.commands.eval_retrieval  # noqa: F401  (registers `eval retrieval`)
from apiatlas.build import compile_docs
from apiatlas.cli import app
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import CALIBRATED, MODES, FusionSettings
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
# an in-catalog request the shipped lexical model answers (not an exact API name)
QUERY = "остаток средств на счёте клиента"
WIDE = {"COLUMNS": "250"}  # rich tables and summaries unwrapped, so lines can be matched


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))


def _compile(out: Path, *extra: str) -> Any:
    args = ["compile", str(BANK / "docs"), "-o", str(out), "--embeddings", "none", *extra]
    return CliRunner(env=WIDE).invoke(app, args)


def _fusion(snapshot: Path) -> dict[str, Any]:
    with Snapshot.open(snapshot) as snap:
        fusion: dict[str, Any] = snap.manifest()["pass_stats"]["search"]["fusion"]
    return fusion


def _search(snapshot: Path, query: str) -> tuple[FusionSettings, Any]:
    with Snapshot.open(snapshot) as snap:
        search = HybridSearch(snap)
        return search.settings, search.search(query, mode=SearchMode.LEXICAL)


def _served(snapshot: Path, query: str) -> dict[str, Any]:
    """The answer of the MCP `search` tool of a server over ``snapshot`` (the official client)."""
    answer: dict[str, Any] = {}

    async def main() -> None:
        with Snapshot.open(snapshot) as snap:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                name = next(t.name for t in (await client.list_tools()).tools if t.name.endswith("search"))
                result = await client.call_tool(name, {"query": query})
                assert isinstance(result.structured_content, dict)
                answer.update(result.structured_content)

    anyio.run(main)
    return answer


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample bank compiled lexical-only with the shipped settings."""
    out = tmp_path_factory.mktemp("shipped") / "bank.atlas"
    result = _compile(out)
    assert result.exit_code == 0, result.output
    assert "Search settings: shipped, fitted on dev halves" in result.output
    return out


def test_saved_settings_compile_into_the_snapshot_and_its_search(tmp_path: Path) -> None:
    saved, report_file = tmp_path / "bank-search.json", tmp_path / "report.json"
    args = ["eval", "retrieval", "--dataset", "bank", str(BANK), "--embedding", "none", "--fit", "--json"]
    fit = CliRunner().invoke(app, [*args, "--save-settings", str(saved)])
    assert fit.exit_code == 0, fit.output
    report_file.write_text(fit.output, encoding="utf-8")
    written = json.loads(saved.read_text(encoding="utf-8"))
    assert written == json.loads(fit.output)["settings"] and "dev half" in written["fitted_on"]
    assert set(written["abstention"]) == {"lexical"}  # --embedding none fits the lexical mode only

    settings = FusionSettings.from_file(saved)
    assert FusionSettings.from_file(report_file) == settings  # the whole --json report reads the same
    assert settings.abstention["lexical"].model_dump(mode="json") == written["abstention"]["lexical"]
    assert settings.lexical_weight == written["lexical_weight"]
    # the modes the file has no model for keep the shipped ones, and fitted_on says so
    assert settings.abstention["hybrid"] == CALIBRATED.abstention["hybrid"]
    assert settings.fitted_on == (
        f"{written['fitted_on']}; shipped values for abstention.hybrid, abstention.dense"
    )

    out = tmp_path / "fitted.atlas"
    compiled = _compile(out, "--search-settings", str(saved))
    assert compiled.exit_code == 0, compiled.output
    assert f"Search settings: {saved}, fitted on {written['fitted_on']}" in compiled.output
    assert _fusion(out) == settings.model_dump(mode="json")
    used, _ = _search(out, QUERY)
    assert used == settings
    with Snapshot.open(out) as snap:
        assert snap.manifest()["options"]["search_settings"] == str(saved)
        assert f"@search_settings/{saved.name}" in snap.source_files()

    info = CliRunner(env=WIDE).invoke(app, ["info", str(out)])
    assert info.exit_code == 0, info.output
    lines = info.output.splitlines()
    assert any("settings file" in line and str(saved) in line for line in lines)
    assert any("settings fitted on" in line and written["fitted_on"] in line for line in lines)
    threshold = f"lexical (threshold {settings.abstention['lexical'].threshold:.4g}"
    assert any("abstention models" in line and threshold in line for line in lines)


def test_a_stricter_file_makes_the_compiled_snapshot_abstain(shipped: Path, tmp_path: Path) -> None:
    settings, answered = _search(shipped, QUERY)
    assert settings == CALIBRATED and not answered.abstained and answered.hits
    assert not answered.hits[0].exact
    lexical = CALIBRATED.abstention["lexical"]
    confidence = lexical.probability(answered.signals)
    assert lexical.threshold <= confidence < 1.0
    strict = lexical.model_copy(update={"threshold": (confidence + 1.0) / 2})
    # only the lexical model and a lexical weight: the rest stays shipped
    partial = {"lexical_weight": 0.9, "abstention": {"lexical": strict.model_dump(mode="json")}}
    path = tmp_path / "strict.json"
    path.write_text(json.dumps(partial), encoding="utf-8")

    out = tmp_path / "strict.atlas"
    result = _compile(out, "--search-settings", str(path))
    assert result.exit_code == 0, result.output
    used, outcome = _search(out, QUERY)
    assert used.lexical_weight == 0.9 and used.dense_weight == CALIBRATED.dense_weight
    assert used.abstention["lexical"] == strict
    assert used.fitted_on == (
        "unknown (strict.json has no fitted_on); shipped values for dense_weight, candidates, "
        "abstention.hybrid, abstention.dense"
    )
    assert outcome.abstained and outcome.reason is ReasonCode.NO_CONFIDENT_MATCH
    assert [h.api_key for h in outcome.ranked] == [h.api_key for h in answered.ranked]  # same ranking
    # the MCP server's search reads the same settings from the manifest
    assert _served(shipped, QUERY)["status"] == "ok"
    assert _served(out, QUERY)["reason"] == "NO_CONFIDENT_MATCH"


def test_the_build_config_names_a_settings_file_relative_to_itself(tmp_path: Path) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "fitted.json").write_text(
        json.dumps({**CALIBRATED.model_dump(mode="json"), "fitted_on": "my requests"}), encoding="utf-8"
    )
    config = folder / "build.yaml"
    config.write_text("embeddings: none\nsearch_settings: fitted.json\n", encoding="utf-8")
    out = tmp_path / "conf.atlas"
    compile_docs(BANK / "docs", overlays_dir=None, config_path=config, out=out, write_report=False)
    assert _fusion(out)["fitted_on"] == "my requests"
    with Snapshot.open(out) as snap:
        options = snap.manifest()["options"]
    assert (
        options["search_settings"]
        == options["build_config"]["search_settings"]
        == str(folder / "fitted.json")
    )

    config.write_text("embeddings: none\nsearch_settings: gone.json\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        compile_docs(BANK / "docs", overlays_dir=None, config_path=config, out=tmp_path / "x.atlas")
    assert info.value.location.file == str(folder / "gone.json")
    assert "search settings file not found" in str(info.value) and f"search_settings of {config}" in str(
        info.value
    )
    assert not (tmp_path / "x.atlas").exists()


def _model(**changes: Any) -> dict[str, Any]:
    return {**CALIBRATED.abstention["lexical"].model_dump(mode="json"), **changes}


BAD_FILES: list[tuple[str, str, int | None, str]] = [
    # (file text, anchor, line, message part)
    ('{\n  "lexical_weight": 0.5,\n}\n', "", 3, "invalid JSON: Expecting property name"),
    ("[0.4, 0.6]", "", None, "expected a JSON object of search settings"),
    ('{"lexical_wieght": 0.5}', "lexical_wieght", None, "unknown field"),
    ('{"dense_weight": -0.1}', "dense_weight", None, "must be a finite number >= 0"),
    ('{"lexical_weight": NaN}', "lexical_weight", None, "must be a finite number >= 0"),
    ('{"lexical_weight": 0, "dense_weight": 0}', "lexical_weight", None, "cannot both be 0"),
    ('{"candidates": 3}', "candidates", None, "greater than or equal to 10"),
    ('{"abstention": {"bm25": {}}}', "abstention.bm25", None, "unknown search mode"),
    (
        json.dumps({"abstention": {"hybrid": _model(treshold=0.5)}}),
        "abstention.hybrid.treshold",
        None,
        "unknown field",
    ),
    (
        json.dumps({"abstention": {"lexical": _model(threshold=1.5)}}),
        "abstention.lexical.threshold",
        None,
        "[0, 1]",
    ),
    (
        json.dumps({"abstention": {"lexical": _model(weights=[1.0])}}),
        "abstention.lexical",
        None,
        "same length",
    ),
    (
        json.dumps(
            {"abstention": {"lexical": _model(signals=["vibes"], weights=[1.0], center=[0.0], scale=[1.0])}}
        ),
        "abstention.lexical",
        None,
        "unknown abstention signals ['vibes']",
    ),
    (json.dumps({"settings": {"fitted_on": 3}, "reports": []}), "settings.fitted_on", None, "valid string"),
]


@pytest.mark.parametrize(("text", "anchor", "line", "message"), BAD_FILES)
def test_a_bad_settings_file_is_a_located_config_error(
    text: str, anchor: str, line: int | None, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        FusionSettings.from_file(path)
    error = info.value
    assert error.code is ReasonCode.BAD_CONFIG and error.location.file == str(path)
    assert error.location.line == line and (error.location.anchor or "") == anchor
    assert message in error.message
    if line is not None:
        assert f"{path}:{line}: " in str(error)
    elif anchor:
        assert f"{path} {anchor}: " in str(error)


def test_a_missing_or_bad_file_stops_the_compile_before_writing(shipped: Path, tmp_path: Path) -> None:
    out = tmp_path / "bank.atlas"
    out.write_bytes(shipped.read_bytes())  # an earlier build: must stay as it was
    before = out.read_bytes()
    missing = _compile(out, "--search-settings", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2  # a configuration mistake (docs/operations.md)
    assert f"error: BAD_CONFIG: {tmp_path / 'nope.json'}: search settings file not found" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"abstention": {"hybrid": {"threshold": 2}}}', encoding="utf-8")
    invalid = _compile(out, "--search-settings", str(bad))
    assert invalid.exit_code == 2
    assert f"error: BAD_CONFIG: {bad} abstention.hybrid.threshold: must be a probability" in invalid.output
    assert out.read_bytes() == before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".md"]
    assert leftovers == []  # no temporary snapshot, no report


def test_every_mode_name_is_a_search_mode() -> None:
    assert set(MODES) == {m.value for m in SearchMode}
