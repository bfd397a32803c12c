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
        0.342161,
        0.0,
        -0.246636,
        0.8859,
    ],
    center=[
        0.438988,
        0.925396,
        -0.156164,
        0.057534,
        0.699332,
    ],
    scale=[
        0.511102,
        0.764292,
        0.882243,
        0.232861,
        0.253753,
    ],
    bias=1.067973,
    threshold=0.714877,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + slack-third + slack-fourth + slack-fresh2 + kubernetes-third + k"
        "ubernetes-fourth + kubernetes-fresh2 + stripe-third + stripe-fresh2 + slack-fres"
        "h3 + kubernetes-fresh3 + stripe-fresh3 + nestful (365 plans; threshold with each"
        " catalog left out)"
    ),
)
