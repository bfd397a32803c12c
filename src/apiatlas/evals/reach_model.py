"""A learned out-of-reach model against the hand-written reach rules, leave one catalog out.

Every request of the development sets is searched on its whole catalog (hybrid, the shipped settings) and
its signals kept (``ReachRow``). A logistic regression over a few signals, each with the direction that
makes sense (a signal that says "served" may not count against it: a feature whose fitted weight has the
wrong sign is dropped and the rest refitted), is fitted on the dev halves of every catalog but one; its
threshold is the highest that keeps each training catalog's related R@5 lost within ``BUDGET`` points;
it is scored on the catalog left out, both halves (``leave_one_out``). Three ways of using it are compared
with the rules on the same requests: alone (it decides for every request with hits and no exact name), in
place of the reach rules (the shared abstention model, ``words_back_the_answer`` and the dropped APIs
kept) and backing them (the rules' decision, or the model's). docs/search.md, "A learned out-of-reach
model", has the figures and the verdict: the rules are kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.evals.calibrate import logistic_regression
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.metrics import recall_at
from apiatlas.evals.runner import build_eval_snapshot, embed_queries, run_queries
from apiatlas.evals.runs import QueryRun, abstained
from apiatlas.search.confidence import AbstentionModel, abstains
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot

BUDGET = 2.0  # points of related R@5 a training catalog may lose to the model's abstention
NEGATIVE_KINDS = ("unrelated", "bank_absent")  # requests the catalog does not serve at all


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


# signal -> (how it is read, the sign its weight must have: +1 says served, -1 says not, 0 either)
FEATURES: dict[str, tuple[Callable[[dict[str, float], float], float], int]] = {
    "logit": (lambda s, p: _logit(p), 1),  # the shared abstention model's
    "reach_margin": (lambda s, p: s.get("reach_margin", 0.0), 1),
    "support": (lambda s, p: s.get("support", 0.0), 1),
    "held": (lambda s, p: s.get("held", 1.0), 1),
    "held_after": (lambda s, p: s.get("held_after", 1.0), 1),
    "absent": (lambda s, p: s.get("absent", 0.0), -1),
    "known": (lambda s, p: math.log1p(s.get("known", 0.0)), 1),
    "cos_gap_median": (lambda s, p: s.get("cos_gap_median", 0.0), 1),
    "lex_per_term": (lambda s, p: s.get("lex_per_term", 0.0), 1),
    "agree": (lambda s, p: s.get("agree", 0.0), 1),
}
ALL = tuple(FEATURES)
REACH = ("reach_margin", "support", "held", "held_after", "absent", "known", "cos_gap_median")
# way -> (features, the decision the model's is joined to: "" none, "base" without the reach rules, "rules")
WAYS: dict[str, tuple[tuple[str, ...], str]] = {
    "alone": (ALL, ""),
    "replaces the rules": (REACH, "base"),
    "backs the rules": (ALL, "rules"),
}


@dataclass
class ReachRow:
    """One request searched on its whole catalog: what the model reads and what the rules decided."""

    catalog: str
    group: str  # the request file
    split: str
    kind: str  # "related", or the out-of-catalog kind
    recall5: float  # of a related request (0 for the others)
    judged: bool  # hits and no exact name first: a request the model decides
    signals: dict[str, float]
    probability: float  # the shared abstention model's
    rules: bool  # the search's decision (the reach rules included)
    base: bool  # the decision without the reach rules
    fixed: bool  # what no model decides: no hits, an order or a request only a dropped API serves

    def features(self, names: Sequence[str]) -> list[float]:
        return [FEATURES[n][0](self.signals, self.probability) for n in names]


def rows_of(catalog: str, run: QueryRun, group: str, settings: FusionSettings) -> ReachRow:
    o = run.outcome
    model = settings.model_for(o.judge.value)
    exact = bool(o.ranked) and o.ranked[0].exact
    hits, cover, undone = bool(o.ranked), o.dropped_cover, bool(o.undone)
    q = run.query
    return ReachRow(
        catalog=catalog,
        group=group,
        split=q.split,
        kind="related" if q.gold else q.kind,
        recall5=recall_at(run.ranked, q.gold, 5) if q.gold else 0.0,
        judged=bool(o.ranked) and not exact,
        signals=dict(o.signals),
        probability=model.probability(o.signals) if o.ranked else 0.0,
        rules=abstained(run, settings),
        base=abstains(
            model, o.signals, hits=hits, exact=exact, dropped_cover=cover, undone=undone, reach=False
        ),
        fixed=abstains(
            AbstentionModel(), o.signals, hits=hits, exact=exact, dropped_cover=cover, undone=undone
        ),
    )


def collect_rows(
    catalog: str,
    evalset: EvalSet,
    groups: dict[str, list[EvalQuery]],
    provider: EmbeddingProvider,
    settings: FusionSettings,
    work: Path,
) -> list[ReachRow]:
    """Every request of ``groups`` (file -> requests) searched on the whole catalog of ``evalset``."""
    path = build_eval_snapshot(evalset, work / f"{catalog}.atlas", provider, settings)
    queries = [q for qs in groups.values() for q in qs]
    vectors, seconds = embed_queries(provider, queries)
    with Snapshot.open(path) as snap:
        search = HybridSearch(snap, provider, settings)
        runs = run_queries(search, queries, SearchMode.HYBRID, vectors, seconds).runs
    group_of = [g for g, qs in groups.items() for _ in qs]
    return [rows_of(catalog, r, g, settings) for r, g in zip(runs, group_of, strict=True)]


@dataclass
class ReachModel:
    names: list[str]
    weights: npt.NDArray[np.float64]
    bias: float
    center: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    threshold: float = 0.0

    def probability(self, rows: Sequence[ReachRow]) -> npt.NDArray[np.float64]:
        if not rows:
            return np.zeros(0)
        x = (np.array([r.features(self.names) for r in rows]) - self.center) / self.scale
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x @ self.weights + self.bias, -50, 50))))


def fit_signed(rows: Sequence[ReachRow], names: Sequence[str]) -> ReachModel:
    """'Served' over ``names`` on ``rows``: related requests weighed by their R@5 (abstaining on a miss
    costs nothing), the two classes of each catalog the same weight; a feature whose weight has the wrong
    sign (``FEATURES``) is dropped and the rest refitted."""
    names = list(names)
    x_rows: list[ReachRow] = []  # the cases, their classes and weights: the same for every refit
    ys: list[float] = []
    ws: list[float] = []
    for catalog in sorted({r.catalog for r in rows}):
        mine = [r for r in rows if r.catalog == catalog and r.judged]
        related = [r for r in mine if r.kind == "related"]
        negative = [r for r in mine if r.kind in NEGATIVE_KINDS]
        gain = sum(r.recall5 for r in related)
        if gain:
            x_rows += related
            ys += [1.0] * len(related)
            ws += [r.recall5 / gain for r in related]
        if negative:
            x_rows += negative
            ys += [0.0] * len(negative)
            ws += [1.0 / len(negative)] * len(negative)
    weight = np.array(ws) * len(ws) / sum(ws)
    while True:
        x = np.array([r.features(names) for r in x_rows], dtype=np.float64)
        center, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale < 1e-9] = 1.0
        coef, bias = logistic_regression((x - center) / scale, np.array(ys), weight)
        wrong = [n for n, c in zip(names, coef, strict=True) if FEATURES[n][1] * c < 0]
        if not wrong:
            return ReachModel(names, coef, bias, center, scale)
        names = [n for n in names if n not in wrong]


def decide(model: ReachModel, rows: Sequence[ReachRow], joined: str) -> list[bool]:
    """Whether each request abstains: the model below its threshold (for a request it judges), or the
    decision it is ``joined`` to ("": only what no model decides, ``ReachRow.fixed``)."""
    probability = model.probability(rows)
    out = []
    for row, p in zip(rows, probability, strict=True):
        other = row.rules if joined == "rules" else row.base if joined == "base" else row.fixed
        out.append(other or (row.judged and bool(p < model.threshold)))
    return out


def lost(rows: Sequence[ReachRow], abstain: Sequence[bool]) -> float:
    """Points of related R@5 lost to abstention."""
    related = [(r, a) for r, a in zip(rows, abstain, strict=True) if r.kind == "related"]
    return 100 * sum(r.recall5 for r, a in related if a) / len(related) if related else 0.0


def threshold_for(model: ReachModel, rows: Sequence[ReachRow], joined: str) -> float:
    """The highest threshold keeping every catalog's related R@5 lost within ``BUDGET`` points."""
    best = 0.0
    catalogs = sorted({r.catalog for r in rows if r.kind == "related"})
    mine = {c: [r for r in rows if r.catalog == c and r.kind == "related"] for c in catalogs}
    for t in sorted({float(p) for c in catalogs for p in model.probability(mine[c])}):
        trial = ReachModel(model.names, model.weights, model.bias, model.center, model.scale, t)
        if any(lost(mine[c], decide(trial, mine[c], joined)) > BUDGET for c in catalogs):
            break
        best = t
    return best


def figures(rows: Sequence[ReachRow], abstain: Sequence[bool]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for half in ("dev", "test"):
        mine = [(r, a) for r, a in zip(rows, abstain, strict=True) if r.split == half]
        out[f"related_recall@5_lost_{half}"] = round(lost([r for r, _ in mine], [a for _, a in mine]), 2)
        for kind in sorted({r.kind for r, _ in mine} - {"related"}):
            theirs = [a for r, a in mine if r.kind == kind]
            out[f"{kind}_{half}"] = [sum(theirs), len(theirs)]
    return out


def leave_one_out(rows: Sequence[ReachRow]) -> dict[str, Any]:
    """For each catalog: the rules' figures and each way's, the model fitted on the others' dev halves."""
    out: dict[str, Any] = {}
    for catalog in dict.fromkeys(r.catalog for r in rows):
        train = [r for r in rows if r.catalog != catalog and r.split == "dev"]
        held = [r for r in rows if r.catalog == catalog]
        mine: dict[str, Any] = {"rules": figures(held, [r.rules for r in held])}
        for way, (names, joined) in WAYS.items():
            model = fit_signed(train, names)
            model.threshold = threshold_for(model, train, joined)
            mine[way] = figures(held, decide(model, held, joined)) | {
                "threshold": round(model.threshold, 4),
                "features": model.names,
            }
        out[catalog] = mine
    return out


# the development sets searched (catalog -> spec, request files, unrelated files); never a fresh set
HTTP_SETS = {
    "kubernetes": (
        "kubernetes.swagger.json",
        ("requests", "requests_ru", "requests_more", "requests_fresh2"),
        ("unrelated",),
    ),
    "slack": (
        "slack_web_openapi_v2.json",
        ("requests", "requests_ru", "requests_more", "requests_fresh2"),
        ("unrelated",),
    ),
    "stripe": ("stripe-2023-09.spec3.yaml", ("stripe_requests",), ("unrelated",)),
}


def development_sets(shared: Path, examples: Path) -> list[tuple[str, EvalSet, dict[str, list[EvalQuery]]]]:
    """(catalog, eval set, request file -> requests) of every catalog with development requests: the
    HTTP specs with their unrelated requests, the sample bank (its own out-of-catalog kinds), TMDB and
    StableToolBench (related requests only)."""
    from apiatlas.evals.bank import load_bank
    from apiatlas.evals.openapi_requests import load_openapi_requests
    from apiatlas.evals.restbench import load_restbench
    from apiatlas.evals.stabletoolbench import load_stabletoolbench
    from apiatlas.evals.unrelated import load_unrelated

    out: list[tuple[str, EvalSet, dict[str, list[EvalQuery]]]] = []
    for catalog, (spec, requests, unrelated) in HTTP_SETS.items():
        folder = examples / catalog / "eval"
        sets = [load_openapi_requests(shared / "openapi" / spec, folder / f"{r}.json") for r in requests]
        groups = {r: s.queries for r, s in zip(requests, sets, strict=True)}
        groups |= {u: load_unrelated(folder / f"{u}.json") for u in unrelated}
        out.append((catalog, sets[0], groups))
    bank = load_bank(examples / "bank")
    tmdb = load_restbench(shared / "restbench" / "tmdb_oas.json", shared / "restbench" / "tmdb_queries.json")
    tools = load_stabletoolbench(sorted((shared / "stabletoolbench").glob("*.json")))
    out += [
        (name, s, {name: s.queries})
        for name, s in (("bank", bank), ("tmdb", tmdb), ("stabletoolbench", tools))
    ]
    return out
