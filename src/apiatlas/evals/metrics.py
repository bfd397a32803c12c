"""Ranking and abstention metrics: Recall@k, nDCG@k (binary gains), MRR, percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence


def recall_at(ranked: Sequence[str], gold: frozenset[str], k: int) -> float:
    """Share of the gold APIs found in the first ``k`` results."""
    return len(gold.intersection(ranked[:k])) / len(gold) if gold else 0.0


def ndcg_at(ranked: Sequence[str], gold: frozenset[str], k: int) -> float:
    """Normalised discounted cumulative gain of the first ``k`` results, every gold API worth 1."""
    if not gold:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(gold))))
    return dcg / ideal


def reciprocal_rank(ranked: Sequence[str], gold: frozenset[str]) -> float:
    """1 / rank of the first gold API (0 when none is returned)."""
    return next((1.0 / (i + 1) for i, key in enumerate(ranked) if key in gold), 0.0)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
