"""Compile the sample bank end to end: parse -> passes -> snapshot -> report, via the API and the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas.build import compile_docs, default_overlays_dir, default_report_path
from apiatlas.catalog.model import EdgeLevel
from apiatlas.cli import app
from apiatlas.snapshot import Snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bank"
CHAIN = [
    ("API_Prs_FindListByFIO", "PersonID", "API_Acc_FindListByListOwnerID", "OwnerID"),
    ("API_Acc_FindListByListOwnerID", "AccountID", "API_DSec_FindListIDByAccID", "AccountID"),
    ("API_DSec_FindListIDByAccID", "DealSecurityID", "API_DealSecurity_FindListByID", "DealSecurityID"),
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding docs/ and overlays/: examples/bank when committed, else generated the same way."""
    if (EXAMPLES / "docs").is_dir():
        return EXAMPLES
    from apiatlas.samples.bank_catalog import sample_bank
    from apiatlas.samples.overlays import write_overlays
    from apiatlas.samples.render import write_doc_set

    root = tmp_path_factory.mktemp("bank")
    doc = sample_bank()
    write_doc_set(doc, root / "docs")
    write_overlays(root / "overlays", {a.name for a in doc.apis})
    return root


@pytest.fixture(scope="module")
def compiled(bank: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out") / "bank.atlas"
    compile_docs(bank / "docs", overlays_dir=bank / "overlays", config_path=None, out=out)
    return out


def test_funnel_counts_recorded_per_stage(compiled: Path) -> None:
    with Snapshot.open(compiled) as snap:
        manifest = snap.manifest()
        stages = manifest["funnel"]["stages"]
        assert stages[0]["stage"] == "parsed"
        assert stages[0]["count"] == snap.counts()["apis"] > 0
        assert [s["stage"] for s in stages[1:]] == ["name", "approved", "implemented", "forbidden"]
        counts = [s["count"] for s in stages]
        assert counts == sorted(counts, reverse=True)
        assert counts[-1] == snap.counts()["kept_apis"] == len(snap.all_api_keys())
        assert manifest["source_files"]["count"] == len(snap.source_files()) > 0
        assert any(p.startswith("@overlays/") for p in snap.source_files())
        assert sum(manifest["graph"]["by_level"].values()) == manifest["graph"]["edges"] > 0
        assert manifest["graph"]["entry_points"] == len(snap.entry_points()) > 0


def test_the_securities_chain_is_in_the_snapshot(compiled: Path) -> None:
    with Snapshot.open(compiled) as snap:
        for producer, out_field, consumer, in_field in CHAIN:
            edges = [e for e in snap.edges_into(consumer, min_rank=3) if e.producer == producer]
            assert any(e.producer_field == out_field and e.consumer_field == in_field for e in edges), (
                producer,
                consumer,
            )
        alias = [
            e
            for e in snap.edges_into("API_Acc_FindListByListOwnerID")
            if e.producer == "API_Prs_FindListByFIO"
        ]
        assert alias[0].level is EdgeLevel.ALIAS
        assert "API_Prs_FindListByFIO" in snap.entry_points()


def test_overlays_are_merged_and_searchable(compiled: Path) -> None:
    with Snapshot.open(compiled) as snap:
        rest = snap.get_api("API_Acc_GetRest")
        assert rest is not None and rest.overlay is not None and rest.overlay.when_to_use
        keys = [h.api_key for h in snap.search("остаток по счёту", limit=5)]
        assert "API_Acc_GetRest" in keys
        assert [h.api_key for h in snap.search("сделки", object_key="DSec")]


def test_report_is_written_next_to_the_snapshot(compiled: Path) -> None:
    report = default_report_path(compiled)
    assert report.name == "bank.report.md"
    text = report.read_text(encoding="utf-8")
    assert "## Funnel" in text and "flowchart TD" in text
    assert "### Chains to `API_DealSecurity_FindListByID`" in text
    assert "API_DSec_FindListIDByAccID" in text.split("### Chains to")[1]


def test_compile_is_byte_identical(bank: Path, compiled: Path, tmp_path: Path) -> None:
    again = tmp_path / "bank.atlas"
    compile_docs(bank / "docs", overlays_dir=bank / "overlays", config_path=None, out=again)
    assert again.read_bytes() == compiled.read_bytes()


def test_cli_compile_finds_overlays_and_prints_the_summary(bank: Path, tmp_path: Path) -> None:
    assert default_overlays_dir(bank / "docs") == bank / "overlays"
    out = tmp_path / "bank.atlas"
    result = CliRunner().invoke(app, ["compile", str(bank / "docs"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Using overlays from" in result.stderr
    for title in ("Funnel", "Dependency graph", "Diagnostics", "entry points"):
        assert title in result.stdout
    assert out.is_file() and (tmp_path / "bank.report.md").is_file()


def test_cli_fail_on_error(bank: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(bank / "docs", docs)
    (docs / "BObjects" / "Services" / "API_Broken_FindAll.htm").write_bytes(b"")
    out = tmp_path / "bank.atlas"
    ok = CliRunner().invoke(app, ["compile", str(docs), "-o", str(out)])
    assert ok.exit_code == 0, ok.output  # an unreadable page is a diagnostic, not a failed build
    failed = CliRunner().invoke(app, ["compile", str(docs), "-o", str(out), "--fail-on-error"])
    assert failed.exit_code == 1
    assert "--fail-on-error" in failed.stderr
    with Snapshot.open(out) as snap:
        assert any(
            d.location.file and "API_Broken_FindAll" in d.location.file for d in snap.diagnostics("error")
        )


def test_config_changes_the_funnel_and_is_recorded(bank: Path, compiled: Path, tmp_path: Path) -> None:
    config = tmp_path / "build.yaml"
    config.write_text(
        "funnel:\n  - {name: name, field: key, operator: matches, value: '^API_[A-Za-z0-9]+_(Find|Get)'}\n",
        encoding="utf-8",
    )
    out = tmp_path / "custom.atlas"
    result = compile_docs(bank / "docs", overlays_dir=None, config_path=config, out=out, write_report=False)
    assert result.report is None and not default_report_path(out).exists()
    with Snapshot.open(out) as snap, Snapshot.open(compiled) as default:
        stages = snap.manifest()["funnel"]["stages"]
        assert [s["stage"] for s in stages] == ["parsed", "name"]
        assert snap.counts()["kept_apis"] != default.counts()["kept_apis"]
        assert snap.manifest()["options"]["config"] == str(config)
        assert f"@config/{config.name}" in snap.source_files()
        assert not any(p.startswith("@overlays/") for p in snap.source_files())


def test_missing_overlay_folder_is_a_clear_error(bank: Path, tmp_path: Path) -> None:
    from apiatlas.errors import ReasonCode, SourceError

    with pytest.raises(SourceError) as info:
        compile_docs(
            bank / "docs", overlays_dir=tmp_path / "nope", config_path=None, out=tmp_path / "x.atlas"
        )
    assert info.value.code is ReasonCode.INVALID_ARGUMENT
    assert not (tmp_path / "x.atlas").exists()
