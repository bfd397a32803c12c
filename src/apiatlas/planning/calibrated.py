"""The shipped plan-confidence model, written by ``apiatlas eval plan-confidence --write`` (do not edit by
hand; the command prints how it was fitted and what it costs on each set)."""

from __future__ import annotations

from apiatlas.planning.confidence import PlanConfidenceModel

SHIPPED_PLAN_CONFIDENCE = PlanConfidenceModel(
    signals=["score", "margin", "edges", "steps", "asks", "actions", "unused", "off_target", "tie"],
    weights=[1.858784, -0.136327, 0.917861, 0.939906, -0.620146, -0.347912, -0.022854, -0.586395, -0.887459],
    center=[2.7325, 0.398796, 0.763439, 2.113861, 0.079208, 1.153465, 0.102063, 0.325908, 0.049505],
    scale=[2.218003, 0.436043, 0.213624, 0.851269, 0.32037, 0.386931, 0.247351, 0.451528, 0.21692],
    bias=-0.784311,
    threshold=0.637236,
    fitted_on="dev halves of tmdb + bank + slack + kubernetes + nestful (202 plans)",
)
