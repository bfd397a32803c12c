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
        0.856489,
        0.311158,
        0.251068,
        -0.098577,
        -0.247572,
        0.163024,
        0.475282,
        0.567043,
        -0.604424,
        -0.094408,
        0.977509,
    ],
    center=[
        3.618373,
        0.372041,
        0.713387,
        0.703708,
        2.40099,
        0.069307,
        1.267327,
        0.128595,
        0.227723,
        0.019802,
        0.24868,
    ],
    scale=[
        1.610472,
        0.438422,
        0.258601,
        0.225621,
        0.924153,
        0.322657,
        0.552063,
        0.292809,
        0.392254,
        0.139319,
        0.421025,
    ],
    bias=1.213616,
    threshold=0.792478,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
