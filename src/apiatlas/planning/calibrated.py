"""The shipped plan-confidence model, written by ``apiatlas eval plan-confidence --write`` (do not edit by
hand; the command prints how it was fitted and what it costs on each set)."""

from __future__ import annotations

from apiatlas.planning.confidence import PlanConfidenceModel

SHIPPED_PLAN_CONFIDENCE = PlanConfidenceModel(
    signals=[
        "margin",
        "lead_other",
        "longer",
        "rank",
    ],
    weights=[
        0.320448,
        0.422889,
        -0.365017,
        -0.411113,
    ],
    center=[
        0.404487,
        0.925079,
        -0.189723,
        0.438735,
    ],
    scale=[
        0.465881,
        0.753356,
        0.904301,
        0.853499,
    ],
    bias=1.387292,
    threshold=0.803006,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
