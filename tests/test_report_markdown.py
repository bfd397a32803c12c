"""The Markdown compile report rendered from a snapshot: funnel and chains as Mermaid, diagnostics by code."""

from __future__ import annotations

import re
from pathlib import Path

from apiatlas.catalog.model import Api
from apiatlas.report import render_report
from apiatlas.report.chains import DependencyGraph, chains_to, deepest_chains
from apiatlas.snapshot import Snapshot, write_snapshot
from test_snapshot_catalog import mini_catalog


def _report(tmp_path: Path) -> str:
    path = tmp_path / "bank.atlas"
    write_snapshot(mini_catalog(), path, options={"source": "docs"})
    with Snapshot.open(path) as snap:
        return render_report(snap, timings={"parse": 1.5, "passes": 0.25})


def _mermaid_blocks(text: str) -> list[str]:
    return re.findall(r"```mermaid\n(.*?)```", text, flags=re.S)


def test_summary_and_funnel_figures(tmp_path: Path) -> None:
    text = _report(tmp_path)
    assert "| APIs (kept / parsed) | 5 / 7 |" in text
    assert "parse 1.50 s" in text and "total 1.75 s" in text
    funnel = _mermaid_blocks(text)[0]
    assert funnel.startswith("flowchart TD")
    assert '["parsed<br/>7 APIs"]' in funnel
    assert '["visa<br/>5 APIs"]' in funnel
    assert "s1 -->" in funnel


def test_chain_to_deal_security_is_drawn(tmp_path: Path) -> None:
    text = _report(tmp_path)
    section = text.split("### Chains to `API_DealSecurity_FindListByID`")[1]
    block = _mermaid_blocks(section)[0]
    assert block.startswith("graph LR")
    for api in [
        "API_Prs_FindListByFIO",
        "API_Acc_FindListByListOwnerID",
        "API_DSec_FindListIDByAccID",
        "API_DealSecurity_FindListByID",
    ]:
        assert f'["{api}"]' in block
    assert "PersonID → OwnerID (alias)" in block


def test_diagnostics_grouped_by_code_with_locations(tmp_path: Path) -> None:
    text = _report(tmp_path)
    diag = text.split("## Diagnostics")[1]
    assert "### UNDECODABLE_FILE (error, 1)" in diag
    assert "`BObjects/BO_Broken.htm:3` — cannot decode" in diag
    assert diag.index("UNDECODABLE_FILE") < diag.index("UNKNOWN_DOMAIN_TYPE")  # equal counts: by code


def test_edges_and_entry_points_tables(tmp_path: Path) -> None:
    text = _report(tmp_path)
    assert "| alias | 3 | 1 |" in text
    assert "| **total** |  | 5 |" in text
    assert "| `API_Prs_FindListByFIO` | Prs |" in text
    assert "| `Acc` | Account | Счёт | 2 |" in text


def test_chains_prefer_nearest_entry_points_and_strong_edges() -> None:
    cat = mini_catalog()
    # a second, shorter route: an entry point that yields AccountID directly
    cat.apis["API_Acc_FindByNumber"] = Api(key="API_Acc_FindByNumber", object_key="Acc", entry_point=True)
    base = cat.edges[2]
    cat.edges.append(base.model_copy(update={"producer": "API_Acc_FindByNumber"}))
    graph = DependencyGraph.from_edges(cat.edges)
    entry = {k for k, a in cat.apis.items() if a.entry_point}
    chains = chains_to(graph, "API_DealSecurity_FindListByID", entry)
    assert [c.apis[0] for c in chains] == ["API_Acc_FindByNumber", "API_Prs_FindListByFIO"]
    assert len(chains[1].apis) == 4
    assert all(e.level.value != "type_only" for c in chains for e in c.edges)
    deepest = deepest_chains(graph, entry)
    assert deepest[0].apis[-1] == "API_DealSecurity_FindListByID"
    assert len(deepest[0].apis) == 4


def test_no_chain_section_when_target_absent(tmp_path: Path) -> None:
    cat = mini_catalog()
    del cat.apis["API_DealSecurity_FindListByID"]
    path = tmp_path / "x.atlas"
    write_snapshot(cat, path, options={})
    with Snapshot.open(path) as snap:
        text = render_report(snap)
    assert "Chains to" not in text
    assert "### Deepest chains" in text
