"""The same write at a thing's own route and under a parent (issue 18, chains): ``POST /rebates`` and
``POST /orders/{order}/rebates`` both create a rebate, ``DELETE /plans/{plan}`` and ``DELETE
/users/{user}/plans/{plan}`` both end a plan. The own route needs no parent's key — one lookup less to
get wrong — so a write ends at it when both are candidates."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import singular


def under_parent(key: str, other: str) -> bool:
    """Whether ``key`` is ``other``'s route with one more parent before its own part: the same method and
    path once one ``literal/{param}`` pair is taken out of ``key``'s (``/orders/{order}/rebates`` ->
    ``/rebates``), something left after that pair."""
    return bool(parent_key(key, other))


def parent_key(key: str, other: str) -> str:
    """The parent's key ``key`` takes that ``other`` does not, when ``under_parent`` (``order`` of
    ``/orders/{order}/rebates`` beside ``/rebates``); '' otherwise."""
    return _parent(key, other)[1]


def _parent(key: str, other: str) -> tuple[str, str]:
    """The parent's collection and key of ``key`` beside ``other`` (``orders``, ``order``): ``parent_key``."""
    method, _, path = key.partition(" ")
    other_method, _, other_path = other.partition(" ")
    parts, own = path.strip("/").split("/"), other_path.strip("/").split("/")
    if method != other_method or len(parts) != len(own) + 2:
        return "", ""
    for i in range(len(parts) - 2):
        pair = not parts[i].startswith("{") and parts[i + 1].startswith("{")
        if pair and parts[:i] + parts[i + 2 :] == own:
            return parts[i], parts[i + 1].strip("{}")
    return "", ""


def scoped_routes(keys: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Each key's twins under one parent more (``under_parent``), with the parent's key input, read from
    the keys once: each key's ``literal/{param}`` pairs taken out in turn and looked up."""
    every = list(keys)
    known = set(every)
    out: dict[str, list[tuple[str, str]]] = {}
    for key in every:
        method, _, path = key.partition(" ")
        parts = path.strip("/").split("/")
        for i in range(len(parts) - 2):
            if parts[i].startswith("{") or not parts[i + 1].startswith("{"):
                continue
            plain = f"{method} /" + "/".join(parts[:i] + parts[i + 2 :])
            if plain in known:
                out.setdefault(plain, []).append((key, parts[i + 1].strip("{}")))
    return out


def own_routes(writes: Sequence[str]) -> list[str]:
    """``writes`` without those another of them serves at its own route (``under_parent``)."""
    return [k for k in writes if not any(under_parent(k, o) for o in writes if o != k)]


def own_reads(keys: Sequence[str], api: Callable[[str], Api | None]) -> list[str]:
    """``keys`` without the reads another of them serves at its own route taking the parent's key as an
    input (``GET /orders/{order}/rebates`` beside ``GET /rebates?order=``: the rebates of an order,
    filtered; not ``GET /rebates`` that lists every order's, taking no order)."""
    reads = [k for k in keys if k.startswith("GET ")]
    return [k for k in keys if not k.startswith("GET ") or not any(_takes_parent(k, o, api) for o in reads)]


def _takes_parent(key: str, other: str, api: Callable[[str], Api | None]) -> bool:
    """Whether ``other`` takes, as a filter named for the parent's kind, the parent's key of ``key``: not an
    input that only shares the key's name (``GET /posts?id=``, the posts' own ids, beside ``GET
    /users/{id}/posts``; ``GET /items?order=asc``, a sort order, beside ``GET /orders/{order}/items``)."""
    collection, parent = _parent(key, other) if key != other else ("", "")
    found = api(other) if parent else None
    if found is None:
        return False
    kind = _norm(singular(collection))
    return any(_norm(p.name) in (kind, kind + "id") and not p.json_schema.get("enum") for p in found.params)


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()
