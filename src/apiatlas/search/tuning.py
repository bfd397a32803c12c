"""Fusion weights and the abstention models: chosen on development data, recorded in the manifest."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.search.confidence import AbstentionModel


class FusionSettings(BaseModel):
    """How lexical and dense signals combine, and when a search abstains.

    ``fused = lexical_weight * bm25/max_bm25 + dense_weight * (cos - min_cos)/(max_cos - min_cos)``
    over the union of both candidate lists. ``abstention`` holds one model per search mode
    (``hybrid``, ``lexical``, ``dense``): a logistic regression over the search's signals
    (``search.confidence.SIGNALS``) and a threshold; below it the search answers NO_CONFIDENT_MATCH.
    A mode without a model never abstains (except for no hits at all).
    """

    model_config = ConfigDict(frozen=True)

    lexical_weight: float = 0.4
    dense_weight: float = 0.6
    candidates: int = Field(default=100, ge=10)
    abstention: dict[str, AbstentionModel] = Field(default_factory=dict)
    fitted_on: str = "defaults (not calibrated)"

    def model_for(self, mode: str) -> AbstentionModel:
        """The abstention model of ``mode`` (an empty one, which never abstains, when none was fitted)."""
        return self.abstention.get(mode) or AbstentionModel()

    def manifest(self) -> dict[str, Any]:
        """The form recorded under ``pass_stats.search`` in the manifest."""
        return {"fusion": self.model_dump(mode="json")}

    @classmethod
    def from_manifest(cls, search_stats: dict[str, Any] | None) -> FusionSettings:
        """The settings a snapshot was built with; a snapshot from before the abstention models
        (its manifest has ``abstain_below`` thresholds instead) gets the shipped models."""
        fusion = (search_stats or {}).get("fusion")
        if not isinstance(fusion, dict):
            return cls()
        settings = cls.model_validate(fusion)
        if "abstention" not in fusion:
            settings = settings.model_copy(update={"abstention": CALIBRATED.abstention})
        return settings


# The shipped default, for catalogs without development data of their own: fusion weights fitted on the
# StableToolBench dev half; abstention models fitted by `apiatlas eval calibrate` on the dev halves of
# StableToolBench, RestBench TMDB and the sample bank together (each dataset weighing the same), with the
# threshold the highest that keeps every one of the three dev halves within 3 points of Recall@5. A
# catalog with its own development requests should be fitted on them (`apiatlas eval retrieval --fit
# --save-settings FILE`): the signals' ranges differ between catalogs (see docs/search.md).
CALIBRATED = FusionSettings(
    lexical_weight=0.7,
    dense_weight=0.3,
    abstention={
        "hybrid": AbstentionModel(
            signals=[
                "coverage",
                "missing_salient",
                "unknown",
                "title_cover",
                "title_recall",
                "object_cover",
                "lex_per_term",
                "lex_gap",
                "cos_top",
                "cos_z",
                "cos_gap_median",
                "cos_gap2",
                "agree",
                "overlap5",
                "fused_gap",
                "concentration",
                "terms",
            ],
            weights=[
                0.968103,
                -0.209101,
                0.266146,
                -0.680784,
                0.392507,
                -0.35532,
                0.78601,
                -0.240309,
                -0.133163,
                0.090622,
                0.647319,
                -0.037946,
                0.286384,
                -0.259109,
                -0.152498,
                0.302456,
                0.305975,
            ],
            center=[
                0.284566,
                0.87833,
                0.21521,
                0.136465,
                0.587626,
                0.104423,
                1.342391,
                0.17895,
                0.863185,
                3.41057,
                0.043637,
                0.007841,
                0.316845,
                0.357754,
                0.161196,
                0.302406,
                2.89676,
            ],
            scale=[
                0.252188,
                0.269712,
                0.251419,
                0.207609,
                0.358979,
                0.176053,
                0.38165,
                0.190657,
                0.030867,
                0.939475,
                0.016895,
                0.008462,
                0.465246,
                0.264537,
                0.15767,
                0.209007,
                0.810258,
            ],
            bias=-0.024332,
            threshold=0.151669,
        ),
        "lexical": AbstentionModel(
            signals=[
                "coverage",
                "missing_salient",
                "unknown",
                "title_cover",
                "title_recall",
                "object_cover",
                "lex_per_term",
                "lex_gap",
                "fused_gap",
                "concentration",
                "terms",
            ],
            weights=[
                0.877691,
                -0.22383,
                0.348507,
                -0.640233,
                0.485028,
                -0.369725,
                0.956434,
                -0.139271,
                -0.139271,
                0.460727,
                0.072466,
            ],
            center=[
                0.290006,
                0.876954,
                0.213106,
                0.136137,
                0.582812,
                0.104426,
                1.34599,
                0.179429,
                0.179429,
                0.287238,
                2.900266,
            ],
            scale=[
                0.251118,
                0.270216,
                0.248446,
                0.205927,
                0.35648,
                0.175685,
                0.37577,
                0.190687,
                0.190687,
                0.199859,
                0.808437,
            ],
            bias=0.049719,
            threshold=0.20734,
        ),
        "dense": AbstentionModel(
            signals=[
                "unknown",
                "cos_top",
                "cos_z",
                "cos_gap_median",
                "cos_gap2",
                "fused_gap",
                "concentration",
                "terms",
            ],
            weights=[-0.178891, -0.125801, 0.481172, 0.690487, -0.01859, -0.01859, 0.364959, -0.028725],
            center=[0.224535, 0.863185, 3.41057, 0.043637, 0.007841, 0.007841, 0.265909, 2.89676],
            scale=[0.251405, 0.030867, 0.939475, 0.016895, 0.008462, 0.008462, 0.183113, 0.810258],
            bias=-0.026781,
            threshold=0.233288,
        ),
    },
    fitted_on="dev halves of stabletoolbench + restbench + bank, `apiatlas eval calibrate` "
    "(363 requests with gold, 385 out of catalog)",
)
