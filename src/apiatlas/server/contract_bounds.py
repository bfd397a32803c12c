"""describe_api's answers, bounded: a contract larger than the budget has its schemas cut at a stated
depth (and its long lists at a stated width), every cut leaving a pointer the agent passes back.

A cut node carries ``"x-more": "<api>#<JSON pointer>"`` (RFC 6901, as a URI fragment of the API key):
``describe_api(api="<api>#/input_schema/properties/body")`` answers that part, bounded the same way.
A list cut after its first N items points at ``…/<list>/N-``: the items from N on. The depth is the
number of ``properties`` levels of a schema shown (1: the top-level fields only) and, for output tables
whose columns are flattened paths (``a.b.c``), the number of path segments."""

from __future__ import annotations

import json
from typing import Any

from apiatlas.errors import ReasonCode
from apiatlas.server.tools.describe_api import ApiContract, DescribeApiResult

DEPTHS = (8, 4, 3, 2, 1)
WIDTHS = (40, 20, 10, 5)  # list items and properties shown once the depth is 1
DESCRIPTION_CHARS = 160
DEPENDENCIES_SHOWN = 6
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf")


def split_pointer(name: str) -> tuple[str, str | None]:
    """``"KEY#/a/b"`` -> ``("KEY", "/a/b")``; a name without a pointer -> ``(name, None)``."""
    key, found, pointer = name.rpartition("#/")
    return (key, "/" + pointer) if found and key else (name, None)


def size(value: Any) -> int:
    """UTF-8 bytes of compact JSON: ≈ 4.2 per cl100k token on the bank, Stripe and Kubernetes contracts
    (Cyrillic and English alike), so a byte budget is a token budget without a tokenizer at run time."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def bounded_contract(contract: dict[str, Any], api: str, budget: int) -> tuple[dict[str, Any], int | None]:
    """The contract as it is when it fits, else cut at the deepest depth (then the widest width) that fits;
    the depth it was cut at (None: not cut)."""
    if size(contract) <= budget:
        return contract, None
    candidate = contract
    for width in (None, *WIDTHS):
        for depth in DEPTHS if width is None else (1,):
            candidate = cut_contract(contract, api, depth, width)
            if size(candidate) <= budget:
                return candidate, depth
    return candidate, 1


def cut_contract(contract: dict[str, Any], api: str, depth: int, width: int | None) -> dict[str, Any]:
    out = dict(contract)
    if isinstance(contract.get("input_schema"), dict):
        out["input_schema"] = cut_schema(contract["input_schema"], f"{api}#/input_schema", depth, width)
    tables = contract.get("output_tables") or []
    out["output_tables"] = [
        _cut_table(t, f"{api}#/output_tables/{i}", depth, width) for i, t in enumerate(tables)
    ]
    deps = contract.get("depends_on") or []
    if len(deps) > DEPENDENCIES_SHOWN:
        out["depends_on"] = deps[:DEPENDENCIES_SHOWN]
        out["more_depends_on"] = f"{api}#/depends_on/{DEPENDENCIES_SHOWN}-"
    return out


def cut_schema(node: Any, pointer: str, depth: int, width: int | None) -> Any:
    """A JSON Schema showing ``depth`` levels of properties (at most ``width`` per level when given)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        here = f"{pointer}/{_escape(key)}"
        if key == "description" and isinstance(value, str):
            out[key] = _short(value)
        elif key == "properties" and isinstance(value, dict):
            out.update(_cut_properties(value, here, pointer, depth, width))
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = cut_schema(value, here, depth, width)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [cut_schema(v, f"{here}/{i}", depth, width) for i, v in enumerate(value)]
        else:
            out[key] = value
    return out


def _cut_properties(
    properties: dict[str, Any], here: str, pointer: str, depth: int, width: int | None
) -> dict[str, Any]:
    if depth <= 0:
        return {"x-more": pointer, "x-properties": len(properties)}
    names = list(properties)[:width] if width is not None else list(properties)
    shown = {n: cut_schema(properties[n], f"{here}/{_escape(n)}", depth - 1, width) for n in names}
    out: dict[str, Any] = {"properties": shown}
    if len(names) < len(properties):
        out["x-more"] = pointer
        out["x-properties"] = len(properties)
    return out


def _cut_table(table: dict[str, Any], pointer: str, depth: int, width: int | None) -> dict[str, Any]:
    columns = table.get("columns") or []
    kept = [_short_item(c) for c in columns if str(c.get("name", "")).count(".") < depth]
    if width is not None:
        kept = kept[:width]
    out = {k: (_short(v) if k == "description" and isinstance(v, str) else v) for k, v in table.items()}
    out["columns"] = kept
    if len(kept) < len(columns):
        out["more_columns"] = f"{pointer}/columns/0-"
        out["total_columns"] = len(columns)
    return out


def part_of(contract: dict[str, Any], api: str, pointer: str, budget: int) -> tuple[Any, int | None]:
    """The part of the full contract at ``pointer`` (``…/N-``: a list's items from N on), bounded like a
    contract; raises KeyError for a pointer that names nothing."""
    segments = [_unescape(s) for s in pointer.strip("/").split("/")] if pointer.strip("/") else []
    start: int | None = None
    if segments and segments[-1].endswith("-") and segments[-1][:-1].isdigit():
        start = int(segments.pop()[:-1])
    value: Any = contract
    for segment in segments:
        value = value[int(segment)] if isinstance(value, list) else value[segment]
    base = f"{api}#{'/' + '/'.join(_escape(s) for s in segments) if segments else ''}"
    if isinstance(value, list):
        return _window(value, start or 0, base, budget), None
    if size(value) <= budget:
        return value, None
    for depth in DEPTHS:
        cut = cut_schema(value, base, depth, None)
        if size(cut) <= budget:
            return cut, depth
    return cut_schema(value, base, 1, WIDTHS[-1]), 1


def _window(items: list[Any], start: int, base: str, budget: int) -> list[Any]:
    """Items from ``start`` while they fit, then a pointer to the rest."""
    shown: list[Any] = []
    used = 0
    for index in range(start, len(items)):
        item = _short_item(items[index])
        used += size(item)
        if shown and used > budget:
            shown.append({"x-more": f"{base}/{index}-", "x-items": len(items)})
            break
        shown.append(item)
    return shown


def _short_item(item: Any) -> Any:
    if isinstance(item, dict) and isinstance(item.get("description"), str):
        return {**item, "description": _short(item["description"])}
    return item


def _short(text: str) -> str:
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1].rstrip() + "…"


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def bounded_answer(
    result: DescribeApiResult, pointer: str | None, budget: int, prefix: str
) -> DescribeApiResult:
    """describe_api's answer within ``budget`` bytes: the contract cut (``cut_depth``), or the part at
    ``pointer`` in place of the contract."""
    if result.api is None:
        return result
    key = result.api.key
    full = result.api.model_dump(mode="json", exclude_none=True)
    how = f"pass an x-more or more_* value back to {prefix}describe_api as api for the rest"
    if pointer is not None:
        try:
            part, depth = part_of(full, key, pointer, budget)
        except (KeyError, IndexError, ValueError, TypeError):
            return DescribeApiResult(
                status="error",
                reason=ReasonCode.INVALID_ARGUMENT,
                message=f"{key} has no part {pointer}",
                next_actions=[f"call {prefix}describe_api with api={key!r} and follow its x-more pointers"],
            )
        result.api, result.pointer, result.part, result.cut_depth = None, pointer, part, depth
        result.message = f"{key}#{pointer}" + (f" (cut at depth {depth}; {how})" if depth else "")
        return result
    contract, depth = bounded_contract(full, key, budget)
    if depth is not None:
        result.api = ApiContract.model_validate(contract)
        result.cut_depth = depth
        result.message += f" (contract cut at depth {depth} to stay small; {how})"
    return result
