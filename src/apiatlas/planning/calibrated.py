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
        0.346647,
        0.424739,
        -0.312811,
        -0.351462,
    ],
    center=[
        0.387955,
        0.909079,
        -0.166008,
        0.411067,
    ],
    scale=[
        0.465353,
        0.763246,
        0.926184,
        0.803276,
    ],
    bias=1.39695,
    threshold=0.806526,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
