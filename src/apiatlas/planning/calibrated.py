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
        0.376561,
        0.0,
        -0.184568,
        0.751021,
    ],
    center=[
        0.44155,
        0.931291,
        -0.155224,
        0.038806,
        0.71466,
    ],
    scale=[
        0.505277,
        0.758253,
        0.87746,
        0.193132,
        0.246323,
    ],
    bias=1.475353,
    threshold=0.90211,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + slack-third + slack-fourth + slack-fresh2 + kubernetes-third + k"
        "ubernetes-fourth + kubernetes-fresh2 + stripe-third + stripe-fresh2 + nestful (3"
        "35 plans; threshold with each catalog left out)"
    ),
)
