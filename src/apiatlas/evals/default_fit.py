"""Fit the shipped abstention models (``search.tuning.CALIBRATED``) on the dev halves of several datasets
together, so that they hold on catalogs unlike any single one of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apiatlas.evals.calibrate import fit_abstention
from apiatlas.evals.dataset import EvalSet
from apiatlas.evals.runner import MODES, EvalContext, collect, prepare, report_of
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings


def fit_default(
    evalsets: list[EvalSet], provider: EmbeddingProvider | None, settings: FusionSettings, work: Path
) -> tuple[FusionSettings, list[dict[str, Any]]]:
    """Abstention models fitted on every dataset's dev half at once (each dataset weighing the same;
    the threshold the highest that keeps every dataset's dev Recall@5 drop within 3 points), the fusion
    weights of ``settings`` kept; and each dataset's report with the fitted settings."""
    modes = [m for m in MODES if provider is not None or m is SearchMode.LEXICAL]
    prepared = []
    for n, evalset in enumerate(evalsets):
        folder = work / f"{n}-{evalset.name}"
        folder.mkdir(parents=True, exist_ok=True)
        prep = prepare(evalset, EvalContext(provider=provider, settings=settings, work=folder))
        prepared.append((prep, collect(prep, provider, settings, modes)))
    names = " + ".join(e.name for e in evalsets)
    fitted = fit_abstention(
        [runs for _, runs in prepared], settings, f"dev halves of {names}, `apiatlas eval calibrate`"
    )
    return fitted, [report_of(prep, runs, fitted, provider) for prep, runs in prepared]
