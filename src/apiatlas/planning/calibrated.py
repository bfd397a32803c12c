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
        0.280721,
        0.936302,
        -0.205197,
        -0.021514,
    ],
    center=[
        0.413721,
        0.932291,
        -0.205534,
        0.363636,
    ],
    scale=[
        0.483171,
        0.759821,
        0.855838,
        0.718324,
    ],
    bias=1.996298,
    threshold=0.826919,
    fitted_on=(
        "development cases of tmdb + bank + slack + slack-more + kubernetes + kubernetes-"
        "more + stripe + nestful (253 plans; threshold with each catalog left out)"
    ),
)
