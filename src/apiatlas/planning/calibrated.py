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
        0.164451,
        0.488911,
        0.130287,
        0.168491,
        0.350325,
        0.142043,
        -0.528308,
        0.037913,
    ],
    center=[
        3.722737,
        0.405556,
        0.726912,
        0.703799,
        0.071052,
        0.281555,
        0.466403,
        0.030284,
    ],
    scale=[
        1.580599,
        0.465181,
        0.244389,
        0.219296,
        0.212105,
        0.434404,
        0.895673,
        0.144721,
    ],
    bias=1.340609,
    threshold=0.823073,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
