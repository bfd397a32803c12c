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
        0.914272,
        -0.08558,
        0.595705,
        0.329841,
        0.450675,
        0.114507,
        -0.309281,
        0.318271,
        -0.551199,
        -0.244542,
    ],
    center=[
        3.048658,
        0.36673,
        0.629347,
        0.773414,
        2.143564,
        0.084158,
        1.20297,
        0.087211,
        0.314356,
        0.024752,
    ],
    scale=[
        2.205527,
        0.440551,
        0.291161,
        0.203529,
        0.834992,
        0.32677,
        0.448751,
        0.232578,
        0.446903,
        0.15537,
    ],
    bias=-0.059334,
    threshold=0.815017,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
