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
        "unused",
        "typed",
        "rank",
        "alien",
    ],
    weights=[
        0.17122,
        0.52066,
        0.158264,
        0.191812,
        0.343065,
        0.115207,
        -0.471052,
        0.046223,
    ],
    center=[
        3.744205,
        0.404487,
        0.730443,
        0.703176,
        0.069735,
        0.281555,
        0.438735,
        0.030284,
    ],
    scale=[
        1.559379,
        0.465881,
        0.242402,
        0.219472,
        0.211506,
        0.434404,
        0.853499,
        0.144721,
    ],
    bias=1.365526,
    threshold=0.824567,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
