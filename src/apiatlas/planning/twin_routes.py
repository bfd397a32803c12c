"""The same write at a thing's own route and under a parent (issue 18, chains): ``POST /rebates`` and
``POST /orders/{order}/rebates`` both create a rebate, ``DELETE /plans/{plan}`` and ``DELETE
/users/{user}/plans/{plan}`` both end a plan. The own route needs no parent's key — one lookup less to
get wrong — so a write ends at it when both are candidates."""

from __future__ import annotations

from collections.abc import Sequence


def under_parent(key: str, other: str) -> bool:
    """Whether ``key`` is ``other``'s route with one more parent before its own part: the same method and
    path once one ``literal/{param}`` pair is taken out of ``key``'s (``/orders/{order}/rebates`` ->
    ``/rebates``), something left after that pair."""
    method, _, path = key.partition(" ")
    other_method, _, other_path = other.partition(" ")
    if method != other_method:
        return False
    parts, own = path.strip("/").split("/"), other_path.strip("/").split("/")
    if len(parts) != len(own) + 2:
        return False
    return any(
        not parts[i].startswith("{") and parts[i + 1].startswith("{") and parts[:i] + parts[i + 2 :] == own
        for i in range(len(parts) - 2)
    )


def own_routes(writes: Sequence[str]) -> list[str]:
    """``writes`` without those another of them serves at its own route (``under_parent``)."""
    return [k for k in writes if not any(under_parent(k, o) for o in writes if o != k)]
