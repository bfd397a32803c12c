"""Side-effect class of an operation: from its HTTP method unless the spec's ``x-apiatlas`` overrides it."""

from __future__ import annotations

from typing import Any

from apiatlas.catalog.model import SideEffect

BY_METHOD: dict[str, SideEffect] = {
    "GET": SideEffect.READ,
    "HEAD": SideEffect.READ,
    "OPTIONS": SideEffect.READ,
    "TRACE": SideEffect.READ,
    "POST": SideEffect.WRITE,
    "PUT": SideEffect.WRITE,
    "PATCH": SideEffect.WRITE,
    "DELETE": SideEffect.DESTRUCTIVE,
}
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})


def side_effect_of(method: str, settings: dict[str, Any]) -> tuple[SideEffect, str | None]:
    """The class and, when ``x-apiatlas: {side_effect: ...}`` overrides the method, the override's value.

    Returns the method's class and the rejected value when the override is not a known class.
    """
    by_method = BY_METHOD.get(method.upper(), SideEffect.WRITE)
    wanted = settings.get("side_effect")
    if wanted is None:
        return by_method, None
    try:
        return SideEffect(str(wanted).lower()), None
    except ValueError:
        return by_method, str(wanted)
