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
        "typed",
    ],
    weights=[
        0.596005,
        0.373322,
        0.365475,
        -0.093411,
        -0.160149,
        0.10355,
        0.140094,
        0.500393,
        -0.554733,
        -0.102665,
        0.833682,
    ],
    center=[
        3.62223,
        0.363872,
        0.713363,
        0.708176,
        2.391089,
        0.069307,
        1.267327,
        0.128595,
        0.227723,
        0.019802,
        0.24868,
    ],
    scale=[
        1.59908,
        0.441092,
        0.257989,
        0.222926,
        0.923038,
        0.322657,
        0.552063,
        0.292809,
        0.392254,
        0.139319,
        0.421025,
    ],
    bias=1.049178,
    threshold=0.800098,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
