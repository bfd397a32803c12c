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
        "steps",
        "asks",
        "actions",
        "unused",
        "off_target",
        "tie",
    ],
    weights=[
        1.12193,
        0.153753,
        0.195278,
        -0.085695,
        0.06548,
        -0.033522,
        -0.133961,
        0.20415,
        -0.583259,
        -0.503029,
    ],
    center=[
        3.187606,
        0.330185,
        0.689133,
        0.726537,
        2.267327,
        0.014851,
        1.20297,
        0.136716,
        0.29703,
        0.014851,
    ],
    scale=[
        2.062271,
        0.382722,
        0.278814,
        0.216545,
        0.78842,
        0.120958,
        0.448751,
        0.283568,
        0.435059,
        0.120958,
    ],
    bias=0.257523,
    threshold=0.8082,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
