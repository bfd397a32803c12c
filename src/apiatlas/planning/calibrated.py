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
        "typed",
    ],
    weights=[
        1.575735,
        0.190047,
        0.140204,
        -0.560282,
        -0.51423,
        -0.028015,
        0.404075,
        0.443403,
        -0.45411,
        -0.408874,
        1.146393,
    ],
    center=[
        3.188019,
        0.330185,
        0.689298,
        0.726537,
        2.267327,
        0.014851,
        1.20297,
        0.136716,
        0.29703,
        0.014851,
        0.230198,
    ],
    scale=[
        2.061988,
        0.382722,
        0.278456,
        0.216545,
        0.78842,
        0.120958,
        0.448751,
        0.283568,
        0.435059,
        0.120958,
        0.419487,
    ],
    bias=0.18865,
    threshold=0.734335,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
