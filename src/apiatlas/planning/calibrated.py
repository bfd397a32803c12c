"""The shipped plan-confidence model, written by ``apiatlas eval plan-confidence --write`` (do not edit by
hand; the command prints how it was fitted and what it costs on each set)."""

from __future__ import annotations

from apiatlas.planning.confidence import PlanConfidenceModel

SHIPPED_PLAN_CONFIDENCE = PlanConfidenceModel(
    signals=[
        "score",
        "margin",
        "covered",
        "edges",
        "steps",
        "asks",
        "actions",
        "unused",
        "off_target",
        "tie",
    ],
    weights=[
        1.537511,
        -0.152661,
        0.32077,
        0.819298,
        0.619495,
        -0.667947,
        -0.578968,
        -0.094504,
        -0.623451,
        -0.927421,
    ],
    center=[
        2.720141,
        0.389909,
        0.625571,
        0.761013,
        2.173267,
        0.079208,
        1.20297,
        0.102063,
        0.320957,
        0.049505,
    ],
    scale=[
        2.2234,
        0.431779,
        0.291888,
        0.211681,
        0.847056,
        0.32037,
        0.448751,
        0.247351,
        0.446827,
        0.21692,
    ],
    bias=-0.766158,
    threshold=0.654581,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
