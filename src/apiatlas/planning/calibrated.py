"""The shipped plan-confidence model, written by ``apiatlas eval plan-confidence --write`` (do not edit by
hand; the command prints how it was fitted and what it costs on each set)."""

from __future__ import annotations

from apiatlas.planning.confidence import PlanConfidenceModel

SHIPPED_PLAN_CONFIDENCE = PlanConfidenceModel(
    signals=[
        "margin",
        "lead_other",
        "longer",
        "below_zero",
        "covered",
    ],
    weights=[
        0.0,
        0.556797,
        -0.127766,
        -0.261941,
        0.507022,
    ],
    center=[
        0.411682,
        0.928558,
        -0.134328,
        0.038806,
        0.714439,
    ],
    scale=[
        0.497275,
        0.772695,
        0.89602,
        0.193132,
        0.246283,
    ],
    bias=1.055403,
    threshold=0.782221,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + slack-third + slack-fourth + slack-fresh2 + kubernetes-third + k"
        "ubernetes-fourth + kubernetes-fresh2 + stripe-third + stripe-fresh2 + nestful (3"
        "35 plans; threshold with each catalog left out)"
    ),
)
