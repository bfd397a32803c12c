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
        1.127935,
        0.124365,
        0.183592,
        -0.075703,
        0.04204,
        -0.035812,
        -0.128256,
        0.206365,
        -0.57315,
        -0.149974,
    ],
    center=[
        3.188365,
        0.329037,
        0.689133,
        0.725299,
        2.272277,
        0.014851,
        1.20297,
        0.136716,
        0.292079,
        0.014851,
    ],
    scale=[
        2.062868,
        0.38327,
        0.278814,
        0.215691,
        0.783571,
        0.120958,
        0.448751,
        0.283568,
        0.432715,
        0.120958,
    ],
    bias=0.305169,
    threshold=0.80791,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
