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
        "uncovered",
    ],
    weights=[
        0.0,
        0.40658,
        -0.184106,
        -0.208265,
        -0.87884,
    ],
    center=[
        0.445691,
        0.919629,
        -0.115068,
        0.057534,
        1.155616,
    ],
    scale=[
        0.533057,
        0.768971,
        0.8839,
        0.232861,
        1.148341,
    ],
    bias=1.57004,
    threshold=0.862824,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + slack-third + slack-fourth + slack-fresh2 + kubernetes-third + k"
        "ubernetes-fourth + kubernetes-fresh2 + stripe-third + stripe-fresh2 + slack-fres"
        "h3 + kubernetes-fresh3 + stripe-fresh3 + nestful (365 plans; threshold with each"
        " catalog left out)"
    ),
)
