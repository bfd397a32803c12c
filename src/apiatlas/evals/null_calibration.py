"""A per-catalog null for abstention, read off the catalog itself, judged leaving one catalog out.

The reach rules and the shared abstention model read fixed bounds; on requests nobody tuned them on they
abstain less (docs/search.md, "A per-catalog null from generic requests"). This measures a mechanism
calibrated per catalog instead: every catalog searches the same generic requests of everyday life and
other software (``background.json``, written for no catalog and never fitted to an evaluation set) and a
sample of its own operations' titles (``title_requests``); for each of a few signals the median of the
first is the catalog's **null**, the median of the second its **served** height, and a request's
``NullScale.score`` is the mean over the signals of (signal - null) / (served - null): 0 at the null,
1 at the served height, whatever the catalog's own scale. A request the rules answer abstains as well
when it gives no value, its words do not back the answer (``words_back_the_answer``) and its score is
under ``alpha``: one number shared by every catalog, chosen on the other catalogs' development halves
(the highest keeping each within ``BUDGET`` points of related R@5 lost more than the rules lose).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from apiatlas.catalog.model import Catalog
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.reach_model import FEATURES, ReachRow, lost
from apiatlas.search.reach_rules import words_back_the_answer

if TYPE_CHECKING:
    from apiatlas.search.embedding import EmbeddingProvider
    from apiatlas.search.tuning import FusionSettings

SIGNALS = ("logit", "reach_margin", "support")  # read as ``reach_model.FEATURES`` reads them
ALPHAS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
BUDGET = 1.0  # points of related R@5 a training catalog may lose beyond what the rules lose
TITLES = 150  # operations' titles searched as the catalog's served requests
BACKGROUND = "background"
TITLE = "titles"


@lru_cache(maxsize=1)
def background_texts() -> tuple[str, ...]:
    """The generic requests (``background.json`` beside this module)."""
    data = json.loads((Path(__file__).with_name("background.json")).read_text(encoding="utf-8"))
    return tuple(" ".join(str(t).split()) for t in data["requests"])


def background_requests() -> list[EvalQuery]:
    texts = background_texts()
    return [EvalQuery(f"{BACKGROUND}:{n}", t, frozenset(), BACKGROUND) for n, t in enumerate(texts)]


def title_requests(catalog: Catalog, count: int = TITLES) -> list[EvalQuery]:
    """About ``count`` of the catalog's kept operations' titles (every n-th by key), each its own gold."""
    apis = sorted((k, a) for k, a in catalog.apis.items() if a.funnel.kept and a.title.strip())
    step = max(1, len(apis) // count)
    return [
        EvalQuery(f"{TITLE}:{n}", " ".join(a.title.split()), frozenset({k}), TITLE)
        for n, (k, a) in enumerate(apis[::step])
    ]


def _value(row: ReachRow, name: str) -> float:
    return FEATURES[name][0](row.signals, row.probability)


@dataclass(frozen=True)
class NullScale:
    """A catalog's null and served heights of each signal (``from_rows``)."""

    null: Mapping[str, float]
    served: Mapping[str, float]

    @classmethod
    def from_rows(cls, background: Sequence[ReachRow], titles: Sequence[ReachRow]) -> NullScale:
        """Medians over the background requests the search judges (hits, no exact name) and the titles."""
        judged = [r for r in background if r.judged] or list(background)
        return cls(
            null={n: float(np.median([_value(r, n) for r in judged])) for n in SIGNALS},
            served={n: float(np.median([_value(r, n) for r in titles])) for n in SIGNALS},
        )

    def score(self, row: ReachRow) -> float:
        """0 at the catalog's null, 1 at its served height (the mean over ``SIGNALS``)."""
        return sum(
            (_value(row, n) - self.null[n]) / max(self.served[n] - self.null[n], 1e-6) for n in SIGNALS
        ) / len(SIGNALS)


def spared(row: ReachRow) -> bool:
    """A request the scale does not judge: it gives a value (a name, an id, a number: the background
    gives none), or its words back the answer."""
    return bool(row.signals.get("values", 0.0)) or words_back_the_answer(row.signals)


def decide(rows: Sequence[ReachRow], scale: NullScale, alpha: float) -> list[bool]:
    """The rules' decision, or (judged, not ``spared``) a score under ``alpha``."""
    return [r.rules or (r.judged and not spared(r) and scale.score(r) < alpha) for r in rows]


@dataclass
class CatalogRows:
    """One catalog's evaluation rows, and its background and title rows (``NullScale``)."""

    rows: list[ReachRow]
    background: list[ReachRow]
    titles: list[ReachRow]

    @property
    def scale(self) -> NullScale:
        return NullScale.from_rows(self.background, self.titles)

    def added(self, alpha: float, split: str | None = "dev") -> float:
        """Points of related R@5 lost beyond the rules' at ``alpha`` (on ``split``, or both halves)."""
        mine = [r for r in self.rows if r.kind == "related" and (split is None or r.split == split)]
        return lost(mine, decide(mine, self.scale, alpha)) - lost(mine, [r.rules for r in mine])


def alpha_for(train: Mapping[str, CatalogRows]) -> float:
    """The highest ``ALPHAS`` keeping every training catalog within ``BUDGET`` (dev halves); 0: none."""
    ok = [a for a in ALPHAS if all(c.added(a) <= BUDGET for c in train.values())]
    return max(ok, default=0.0)


def _group(row: ReachRow) -> str:
    """An out-of-catalog request's file, and its kind when the file mixes kinds (the bank's)."""
    return row.group if row.kind in ("unrelated", "cross") else f"{row.group}:{row.kind}"


def curve(mine: CatalogRows) -> list[dict[str, Any]]:
    """At each of ``ALPHAS``: related R@5 lost beyond the rules (dev / test) and the out-of-catalog
    requests abstaining beyond the rules' (every file and half together)."""
    out = []
    negative = [r for r in mine.rows if r.kind != "related"]
    for alpha in ALPHAS:
        more = sum(decide(negative, mine.scale, alpha)) - sum(r.rules for r in negative)
        out.append(
            {
                "alpha": alpha,
                "added_lost_dev": round(mine.added(alpha, "dev"), 2),
                "added_lost_test": round(mine.added(alpha, "test"), 2),
                "more_abstaining": [more, len(negative)],
            }
        )
    return out


def figures(rows: Sequence[ReachRow], abstain: Sequence[bool]) -> dict[str, Any]:
    """Related R@5 lost per half, and each out-of-catalog request file's abstaining per half."""
    out: dict[str, Any] = {}
    for half in ("dev", "test"):
        mine = [(r, a) for r, a in zip(rows, abstain, strict=True) if r.split == half]
        related = [(r, a) for r, a in mine if r.kind == "related"]
        out[f"lost_{half}"] = round(lost([r for r, _ in related], [a for _, a in related]), 2)
        for group in sorted({_group(r) for r, _ in mine if r.kind != "related"}):
            theirs = [a for r, a in mine if _group(r) == group and r.kind != "related"]
            out[f"{group}_{half}"] = [sum(theirs), len(theirs)]
    return out


def leave_one_out(catalogs: Mapping[str, CatalogRows]) -> dict[str, Any]:
    """For each catalog: ``alpha`` chosen on the others, its null and served heights, and the figures of
    the rules and of the rules with the scale."""
    out: dict[str, Any] = {}
    for name, mine in catalogs.items():
        alpha = alpha_for({k: v for k, v in catalogs.items() if k != name})
        scale = mine.scale
        out[name] = {
            "alpha": alpha,
            "null": {k: round(v, 4) for k, v in scale.null.items()},
            "served": {k: round(v, 4) for k, v in scale.served.items()},
            "rules": figures(mine.rows, [r.rules for r in mine.rows]),
            "with the scale": figures(mine.rows, decide(mine.rows, scale, alpha)),
            "curve": curve(mine),
        }
    return out


# catalog -> (spec, related request files); each also searches its unrelated files (``UNRELATED``), the
# other catalogs' as ``cross`` (requests no operation of these catalogs was written for) and the
# report-only ``unrelated_fresh`` (never read to choose anything: alpha is chosen on related losses)
HTTP_SETS = {
    "slack": (
        "slack_web_openapi_v2.json",
        ("requests", "requests_ru", "requests_more", "requests_fresh2", "requests_fresh3"),
    ),
    "kubernetes": (
        "kubernetes.swagger.json",
        ("requests", "requests_ru", "requests_more", "requests_fresh2", "requests_fresh3"),
    ),
    "stripe": ("stripe-2023-09.spec3.yaml", ("stripe_requests", "requests_fresh3")),
}
UNRELATED = ("unrelated", "unrelated_fresh3")
REPORT_ONLY = "unrelated_fresh"


def _cross(examples: Path, catalog: str) -> dict[str, list[EvalQuery]]:
    """The other catalogs' unrelated requests, under ids of their own (the query vectors are keyed by id)."""
    from apiatlas.evals.unrelated import load_unrelated

    out: dict[str, list[EvalQuery]] = {}
    for other in HTTP_SETS:
        if other != catalog:
            for name in UNRELATED:
                found = load_unrelated(examples / other / "eval" / f"{name}.json")
                out[f"cross_{other}_{name}"] = [
                    EvalQuery(f"cross-{other}:{q.qid}", q.text, frozenset(), "cross") for q in found
                ]
    return out


def catalog_sets(shared: Path, examples: Path) -> list[tuple[str, EvalSet, dict[str, list[EvalQuery]]]]:
    """(catalog, eval set, request file -> requests) of the three HTTP specs and the sample bank."""
    from apiatlas.evals.bank import load_bank
    from apiatlas.evals.openapi_requests import load_openapi_requests
    from apiatlas.evals.unrelated import load_unrelated

    out: list[tuple[str, EvalSet, dict[str, list[EvalQuery]]]] = []
    for catalog, (spec, requests) in HTTP_SETS.items():
        folder = examples / catalog / "eval"
        sets = [load_openapi_requests(shared / "openapi" / spec, folder / f"{r}.json") for r in requests]
        groups = {r: s.queries for r, s in zip(requests, sets, strict=True)}
        groups |= {u: load_unrelated(folder / f"{u}.json") for u in (*UNRELATED, REPORT_ONLY)}
        out.append((catalog, sets[0], groups | _cross(examples, catalog)))
    bank = load_bank(examples / "bank")
    out.append(("bank", bank, {"bank": bank.queries}))
    return out


def collect(
    catalog: str,
    evalset: EvalSet,
    groups: dict[str, list[EvalQuery]],
    provider: EmbeddingProvider,
    settings: FusionSettings,
    work: Path,
) -> CatalogRows:
    """``groups``, the background and the catalog's titles searched on its whole catalog (one snapshot)."""
    from apiatlas.evals.reach_model import collect_rows

    every = groups | {BACKGROUND: background_requests(), TITLE: title_requests(evalset.catalog)}
    rows = collect_rows(catalog, evalset, every, provider, settings, work)
    return CatalogRows(
        rows=[r for r in rows if r.group not in (BACKGROUND, TITLE)],
        background=[r for r in rows if r.group == BACKGROUND],
        titles=[r for r in rows if r.group == TITLE],
    )
