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
        0.425244,
        0.0,
        -0.325293,
        -1.053529,
    ],
    center=[
        0.438988,
        0.925396,
        -0.156164,
        0.057534,
        1.178082,
    ],
    scale=[
        0.511102,
        0.764292,
        0.882243,
        0.232861,
        1.182503,
    ],
    bias=1.155137,
    threshold=0.761339,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + slack-third + slack-fourth + slack-fresh2 + kubernetes-third + k"
        "ubernetes-fourth + kubernetes-fresh2 + stripe-third + stripe-fresh2 + slack-fres"
        "h3 + kubernetes-fresh3 + stripe-fresh3 + nestful (365 plans; threshold with each"
        " catalog left out)"
    ),
)
