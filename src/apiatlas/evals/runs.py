"""One request's search run and a mode's runs (full catalog, in and out of catalog), and the search's
abstention decision replayed from a run's signals."""

from __future__ import annotations

from dataclasses import dataclass, field

from apiatlas.evals.dataset import EvalQuery
from apiatlas.search.confidence import abstains
from apiatlas.search.outcome import SearchMode, SearchOutcome
from apiatlas.search.tuning import FusionSettings

GOLD_REMOVED = "gold_removed"  # the kind of an out-of-catalog run made by removing the request's gold


@dataclass
class QueryRun:
    query: EvalQuery
    outcome: SearchOutcome
    seconds: float
    out_of_catalog: bool = False

    @property
    def ranked(self) -> list[str]:
        return [h.api_key for h in self.outcome.ranked]

    @property
    def kind(self) -> str:
        return self.query.kind or GOLD_REMOVED


@dataclass
class ModeRuns:
    mode: SearchMode
    runs: list[QueryRun] = field(default_factory=list)


@dataclass
class Runs:
    """One mode's runs: every request with gold on the full snapshot (``full``, for the ranking figures),
    the dataset's own out-of-catalog requests on it too (``own_full``: what a user of the whole catalog
    gets), and the in-catalog and out-of-catalog runs on the fold snapshots (for abstention)."""

    full: list[QueryRun] = field(default_factory=list)
    inside: list[QueryRun] = field(default_factory=list)
    outside: list[QueryRun] = field(default_factory=list)
    own_full: list[QueryRun] = field(default_factory=list)

    def split(self, name: str) -> Runs:
        return Runs(
            [r for r in self.full if r.query.split == name],
            [r for r in self.inside if r.query.split == name],
            [r for r in self.outside if r.query.split == name],
            [r for r in self.own_full if r.query.split == name],
        )


def probability(run: QueryRun, settings: FusionSettings) -> float:
    """The abstention model's probability for a run (1 for an exact name, 0 for no hits at all)."""
    o = run.outcome
    if not o.ranked:
        return 0.0
    if o.ranked[0].exact:
        return 1.0
    return settings.model_for(o.judge.value).probability(o.signals)


def abstained(run: QueryRun, settings: FusionSettings, threshold: float | None = None) -> bool:
    """The search's decision replayed from the run's signals with ``settings`` (and another threshold)."""
    o = run.outcome
    model = settings.model_for(o.judge.value)
    if threshold is not None:
        model = model.model_copy(update={"threshold": threshold})
    top_exact = bool(o.ranked) and o.ranked[0].exact
    return abstains(
        model,
        o.signals,
        hits=bool(o.ranked),
        exact=top_exact,
        dropped_cover=o.dropped_cover,
        undone=bool(o.undone),
    )
