"""Fusion weights and the abstention models: chosen on development data, recorded in the manifest."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apiatlas.config_file import read_config_text
from apiatlas.errors import ConfigError, Location
from apiatlas.search.confidence import DENSE_SIGNALS, HYBRID_SIGNALS, LEXICAL_SIGNALS, AbstentionModel

MODES = ("hybrid", "lexical", "dense")


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
    # the lexical side weighs as much of its weight as the share of the request its best hit covers
    # (rarity-weighted): set for code surfaces, whose names match a word or two of most requests
    lexical_by_cover: bool = False
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

    @classmethod
    def from_file(cls, path: Path) -> FusionSettings:
        """Settings from a JSON file: what ``apiatlas eval retrieval --fit --save-settings`` writes (this
        model's fields), or a whole ``eval retrieval --json`` / ``eval calibrate --json`` report (its
        ``settings``). A field, or an abstention mode, the file leaves out keeps the shipped
        ``CALIBRATED`` value, and ``fitted_on`` then says which; ``{}`` as a mode's model never abstains.

        Raises ConfigError located in the file (line for bad JSON, field path for a bad value).
        """
        path = Path(path)
        where = Location(file=str(path))
        text = read_config_text(path, "search settings file")
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            at = Location(file=str(path), line=exc.lineno)
            raise ConfigError(f"invalid JSON: {exc.msg} (column {exc.colno})", location=at) from exc
        prefix = ""
        if isinstance(data, dict) and "settings" in data and not data.keys() & cls.model_fields.keys():
            data, prefix = data["settings"], "settings."
        if not isinstance(data, dict):
            raise ConfigError(
                f"expected a JSON object of search settings (fields {sorted(cls.model_fields)}), "
                f"got {type(data).__name__}",
                location=where,
            )
        problem = _settings_problem(data)
        if problem is not None:
            raise ConfigError(problem[1], location=Location(file=str(path), anchor=prefix + problem[0]))
        given: dict[str, Any] = data.get("abstention", {})
        filled = [f for f in ("lexical_weight", "dense_weight", "candidates") if f not in data]
        filled += [f"abstention.{m}" for m in MODES if m not in given]
        models = {m: model for m, model in CALIBRATED.abstention.items() if m not in given} | given
        fitted_on = data.get("fitted_on", f"unknown ({path.name} has no fitted_on)")
        if filled and isinstance(fitted_on, str):
            fitted_on += f"; shipped values for {', '.join(filled)}"
        merged = {**CALIBRATED.model_dump(), **data, "abstention": models, "fitted_on": fitted_on}
        try:
            return cls.model_validate(merged)
        except ValidationError as exc:
            first = exc.errors()[0]
            anchor = ".".join(str(part) for part in first["loc"])
            raise ConfigError(
                f"{first['msg']} ({exc.error_count()} error(s))",
                location=Location(file=str(path), anchor=prefix + anchor),
            ) from exc


def _settings_problem(data: dict[str, Any]) -> tuple[str, str] | None:
    """The first unknown field, unknown mode or out-of-range number of a settings file, or None."""
    fields = FusionSettings.model_fields
    unknown = sorted(data.keys() - fields.keys())
    if unknown:
        return unknown[0], f"unknown field; the settings have {sorted(fields)}"
    for name in ("lexical_weight", "dense_weight"):
        value = data.get(name, 0.0)
        if isinstance(value, (int, float)) and not (math.isfinite(value) and value >= 0):
            return name, f"must be a finite number >= 0, got {value}"
    if data.get("lexical_weight") == 0 and data.get("dense_weight") == 0:
        return "lexical_weight", "lexical_weight and dense_weight cannot both be 0"
    abstention = data.get("abstention", {})
    if not isinstance(abstention, dict):
        return "abstention", f"must be an object of one model per mode {list(MODES)}"
    for mode, model in abstention.items():
        if mode not in MODES:
            return f"abstention.{mode}", f"unknown search mode; the modes are {list(MODES)}"
        if not isinstance(model, dict):
            continue  # pydantic names the type error
        extra = sorted(model.keys() - AbstentionModel.model_fields.keys())
        if extra:
            known = sorted(AbstentionModel.model_fields)
            return f"abstention.{mode}.{extra[0]}", f"unknown field; an abstention model has {known}"
        threshold = model.get("threshold", 0.0)
        if isinstance(threshold, (int, float)) and not 0.0 <= threshold <= 1.0:
            return f"abstention.{mode}.threshold", f"must be a probability in [0, 1], got {threshold}"
        numbers = [model.get("bias", 0.0)]
        numbers += [x for key in ("weights", "center", "scale") for x in _list(model.get(key))]
        if any(isinstance(x, float) and not math.isfinite(x) for x in numbers):
            return f"abstention.{mode}", "bias, weights, center and scale must be finite numbers"
    return None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# The shipped default, for catalogs without development data of their own: fusion weights fitted on the
# StableToolBench dev half; abstention models fitted by `apiatlas eval calibrate` on the dev halves of
# StableToolBench, RestBench TMDB and the sample bank together (each dataset weighing the same), with the
# threshold the highest that keeps every one of the three dev halves within 3 points of Recall@5 (in 90%
# of bootstrap resamples). The signals' ranges differ between catalogs, so this common threshold is set
# by the strictest catalog (the bank) and abstains little elsewhere (StableToolBench: none); a catalog
# with development requests of its own should be fitted on them (`apiatlas eval retrieval --fit
# --save-settings FILE`; docs/search.md). Fitted on card vectors of the batch encoder (what a compile
# with an empty vector cache makes), lexical scores of the query's content words with Lucene's idf, and
# HTTP operations' actions in their cards (session 6).
# fmt: off
CALIBRATED = FusionSettings(
    lexical_weight=0.7,
    dense_weight=0.3,
    abstention={
        "hybrid": AbstentionModel(
            signals=list(HYBRID_SIGNALS),
            weights=[
                0.332495, 0.308001, 0.115906, -0.358044, 0.389759, -0.162587, 0.424734, -0.523886, -0.12894,
                -0.307057, 0.361104, 0.267812, 0.076021, 0.952669, 0.41218, 0.157948, 0.290247, 0.043289,
                0.664939,
            ],
            center=[
                0.320617, 0.855741, 0.183025, 0.173603, 0.655713, 0.128877, 1.750198, 0.179392, 0.872689,
                3.698686, 0.046522, 0.00946, 0.029719, 0.348574, 0.391845, 0.411748, 0.169667, 0.303663,
                2.65892,
            ],
            scale=[
                0.266644, 0.302228, 0.21618, 0.227099, 0.331608, 0.192893, 0.400751, 0.181438, 0.026615,
                0.927143, 0.018382, 0.010337, 0.015762, 0.262831, 0.488162, 0.25531, 0.158258, 0.206813,
                0.690931,
            ],
            bias=0.23115,
            threshold=0.043766,
        ),
        "lexical": AbstentionModel(
            signals=list(LEXICAL_SIGNALS),
            weights=[
                1.069225, 0.412253, -0.022169, -0.226096, 0.433729, -0.119714, 0.421377, -0.059755, -0.059755,
                0.113363, 0.104848,
            ],
            center=[
                0.322514, 0.854408, 0.177912, 0.175135, 0.661043, 0.129794, 1.761152, 0.180515, 0.180515,
                0.299159, 2.665827,
            ],
            scale=[
                0.267148, 0.303342, 0.206937, 0.227367, 0.330677, 0.191636, 0.377246, 0.181447, 0.181447,
                0.212293, 0.687455,
            ],
            bias=0.278029,
            threshold=0.115915,
        ),
        "dense": AbstentionModel(
            signals=list(DENSE_SIGNALS),
            weights=[-0.381505, 0.260208, 0.019411, 0.503049, 0.121773, 0.121773, 0.543589, -0.078621],
            center=[0.191097, 0.872689, 3.698686, 0.046522, 0.00946, 0.00946, 0.267657, 2.65892],
            scale=[0.219785, 0.026615, 0.927143, 0.018382, 0.010337, 0.010337, 0.178077, 0.690931],
            bias=0.182946,
            threshold=0.109931,
        ),
    },
    fitted_on="dev halves of stabletoolbench + restbench + bank, `apiatlas eval calibrate` "
    "(1062 requests with gold, 385 out of catalog)",
)
# fmt: on
