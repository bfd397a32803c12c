"""Fusion weights and the abstention threshold: chosen on development data, recorded in the manifest."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class FusionSettings(BaseModel):
    """How lexical and dense signals combine, and when a search abstains.

    ``fused = lexical_weight * bm25/max_bm25 + dense_weight * (cos - min_cos)/(max_cos - min_cos)``
    over the union of both candidate lists; ``confidence = confidence_dense * top_cos +
    (1 - confidence_dense) * top_coverage`` (coverage = share of the query's stems the top hit
    contains); below ``abstain_below`` the search answers NO_CONFIDENT_MATCH.
    """

    model_config = ConfigDict(frozen=True)

    lexical_weight: float = 0.4
    dense_weight: float = 0.6
    candidates: int = Field(default=100, ge=10)
    confidence_dense: float = 0.7
    abstain_below: float = 0.0
    lexical_abstain_below: float = 0.0  # threshold when no vectors are available (coverage only)
    dense_abstain_below: float = 0.0  # threshold of dense-only mode (top cosine only)
    fitted_on: str = "defaults (not calibrated)"

    def manifest(self) -> dict[str, Any]:
        """The form recorded under ``pass_stats.search`` in the manifest."""
        return {"fusion": self.model_dump(mode="json")}

    @classmethod
    def from_manifest(cls, search_stats: dict[str, Any] | None) -> FusionSettings:
        fusion = (search_stats or {}).get("fusion")
        return cls.model_validate(fusion) if isinstance(fusion, dict) else cls()


# Fitted by `apiatlas eval retrieval --dataset stabletoolbench --fit` on the dev half of the pooled
# StableToolBench G1/G2 files (219 queries; the largest dev set), with the rarity-weighted coverage.
# Other catalogs fit differently (sample bank dev: lexical 0.3, abstain_below 0.28 on coverage
# alone, which catches more there but costs 27 points of test Recall@5): refit per catalog.
CALIBRATED = FusionSettings(
    lexical_weight=0.7,
    dense_weight=0.3,
    confidence_dense=0.1,
    abstain_below=0.1374,
    lexical_abstain_below=0.0846,
    dense_abstain_below=0.5955,
    fitted_on="stabletoolbench dev half (219 queries), `apiatlas eval retrieval --fit`",
)
