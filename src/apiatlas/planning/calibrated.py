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
        0.483575,
        0.617802,
        0.029451,
        0.109601,
        0.533078,
        0.21877,
        -0.800876,
        0.220023,
    ],
    center=[
        3.674151,
        0.417647,
        0.722253,
        0.704223,
        0.075005,
        0.283531,
        0.521739,
        0.030284,
    ],
    scale=[
        1.617751,
        0.469822,
        0.251727,
        0.218994,
        0.215377,
        0.436525,
        0.964038,
        0.144721,
    ],
    bias=1.011272,
    threshold=0.861349,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
