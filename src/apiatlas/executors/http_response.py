"""Turns an HTTP response into rows (JSON flattened to field paths like ``results[].id``) or a reason code."""

from __future__ import annotations

import json
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import ExecutionLimits, TableResult, json_value

# Keys that usually hold the rows of a list response, best first (TMDB, Stripe, Kubernetes, ...).
ROW_KEYS = ("results", "data", "items", "records", "entries", "hits", "values", "objects", "list")
MAX_COLUMNS = 250
MAX_DEPTH = 4
MAX_ENVELOPE_FIELDS = 6  # more fields of its own: the object is a record, not a list envelope
ERROR_TEXT_KEYS = ("message", "status_message", "error_description", "detail", "error", "title", "reason")


@dataclass(frozen=True)
class Body:
    """A response body as read: at most the size cap, and whether more was left unread."""

    data: bytes
    cut: bool
    content_type: str


def _flatten(value: Any, prefix: str, out: dict[str, Any], depth: int) -> None:
    """Objects become ``a.b``; arrays of scalars ``a[]`` (a list), arrays of objects ``a[].b`` (lists)."""
    if isinstance(value, dict) and depth > 0:
        if not value and prefix:
            out[prefix] = {}
        for key, sub in value.items():
            _flatten(sub, f"{prefix}.{key}" if prefix else str(key), out, depth - 1)
        return
    if isinstance(value, list) and depth > 0:
        if value and all(isinstance(v, dict) for v in value):
            columns: dict[str, list[Any]] = {}
            for item in value:
                flat: dict[str, Any] = {}
                _flatten(item, "", flat, depth - 1)
                for key, sub in flat.items():
                    columns.setdefault(key, []).append(sub)
            for key, values in columns.items():
                out[f"{prefix}[].{key}"] = values
            return
        out[f"{prefix}[]"] = value
        return
    out[prefix or "value"] = value


def _row_arrays(data: Any, hints: list[str] | None) -> list[str]:
    """Keys of the arrays whose items are rows, the main one first; [] for a single record.

    ``hints`` are the top-level arrays the documented output table has columns for (``results`` for
    ``results[].id``), in column order; None when nothing is documented (then common names decide).
    An object with many fields of its own is one record (an item with its tags), not a list envelope.
    """
    if not isinstance(data, dict):
        return []
    lists = [k for k, v in data.items() if isinstance(v, list) and all(isinstance(i, dict) for i in v)]
    if not lists or len(data) - len(lists) > MAX_ENVELOPE_FIELDS:
        return []
    if hints is not None:
        ordered = [h for h in hints if h in lists]
    else:
        ordered = [k for k in ROW_KEYS if k in lists]
        if not ordered and len(lists) == 1:
            ordered = lists
    return ordered + [k for k in lists if k not in ordered and data[k]] if ordered else []


def row_hints(columns: list[str]) -> list[str] | None:
    """Top-level array names of documented field paths (``results[].id`` -> ``results``); None if none."""
    if not columns:
        return None
    hints: list[str] = []
    for column in columns:
        head, sep, rest = column.partition("[]")
        if sep and rest.startswith(".") and "." not in head and head not in hints:
            hints.append(head)
    return hints


def _item_rows(key: str, items: list[Any], envelope: dict[str, Any]) -> list[dict[str, Any]]:
    prefix = f"{key}[]"
    rows = []
    for item in items:
        flat: dict[str, Any] = {}
        if isinstance(item, dict):
            _flatten(item, "", flat, MAX_DEPTH - 1)
            flat = {f"{prefix}.{k}": v for k, v in flat.items()}
        else:
            flat = {prefix: item}
        rows.append({**envelope, **flat})
    return rows


def row_sets(data: Any, hints: list[str] | None = None) -> list[tuple[str, list[dict[str, Any]]]]:
    """(array key, rows) of a JSON document, the main rows first ('' for a top-level list or one record).

    Main rows carry the envelope's fields (``page``); other arrays of records get rows of their own.
    """
    if isinstance(data, list):
        return [("", _item_rows("", data, {}))]
    keys = _row_arrays(data, hints)
    if not keys:
        row: dict[str, Any] = {}
        _flatten(data, "", row, MAX_DEPTH)
        return [("", [row])]
    envelope: dict[str, Any] = {}
    _flatten({k: v for k, v in data.items() if k not in keys}, "", envelope, MAX_DEPTH)
    main, *others = keys
    return [(main, _item_rows(main, data[main], envelope))] + [
        (k, _item_rows(k, data[k], {})) for k in others
    ]


def rows_of(data: Any, hints: list[str] | None = None) -> list[dict[str, Any]]:
    """The main rows of a JSON document (see ``row_sets``)."""
    return row_sets(data, hints)[0][1]


def _cell(value: Any, max_bytes: int) -> tuple[Any, bool]:
    if isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        if len(text.encode("utf-8")) <= max_bytes:
            return value, False
        return json_value(text, max_bytes)
    return json_value(value, max_bytes)


def tables_of(api: Api, data: Any, limits: ExecutionLimits, cut: bool) -> list[TableResult]:
    """The output tables of a parsed JSON document: the documented table (its name and column spelling)
    holds the main rows; another array of records becomes ``<table>.<key>`` (e.g. ``response.members``)."""
    documented = api.output_tables[0] if api.output_tables else None
    name = documented.name if documented else "response"
    hints = row_hints([c.name for c in documented.columns]) if documented else None
    spelled = {c.name.lower(): c.name for c in documented.columns} if documented else {}
    order = {c.name: i for i, c in enumerate(documented.columns)} if documented else {}
    return [
        _table(name if index == 0 else f"{name}.{key}", rows, spelled, order, limits, cut)
        for index, (key, rows) in enumerate(row_sets(data, hints))
    ]


def _table(
    name: str,
    all_rows: list[dict[str, Any]],
    spelled: dict[str, str],
    documented_order: dict[str, int],
    limits: ExecutionLimits,
    cut: bool,
) -> TableResult:
    truncated = cut or len(all_rows) > limits.max_rows
    columns: dict[str, str] = {}  # data key -> column name
    rows: list[dict[str, Any]] = []
    for raw in all_rows[: limits.max_rows]:
        row: dict[str, Any] = {}
        for key, value in raw.items():
            column = columns.get(key)
            if column is None:
                if len(columns) >= MAX_COLUMNS:
                    truncated = True
                    continue
                column = columns[key] = spelled.get(key.lower(), key)
            row[column], was_cut = _cell(value, limits.max_value_bytes)
            truncated = truncated or was_cut
        rows.append(row)
    order = sorted(columns.values(), key=lambda c: documented_order.get(c, len(documented_order)))
    return TableResult(
        name=name,
        columns=order,
        rows=[{c: r.get(c) for c in order} for r in rows],
        row_count=len(rows),
        truncated=truncated,
    )


def salvage_json(text: str) -> Any:
    """The complete leading items of a JSON document cut at the size cap (a list, or an object's arrays).

    Returns None when nothing usable precedes the cut.
    """
    decoder = json.JSONDecoder()
    stripped = text.lstrip()
    if stripped.startswith("["):
        return _salvage_items(decoder, stripped, 1)
    if not stripped.startswith("{"):
        return None
    out: dict[str, Any] = {}
    pos = 1
    while True:
        pos = _skip(stripped, pos, ",")
        if pos >= len(stripped) or stripped[pos] != '"':
            return out or None
        try:
            key, pos = decoder.raw_decode(stripped, pos)
        except json.JSONDecodeError:
            return out or None
        pos = _skip(stripped, pos, ":")
        if pos < len(stripped) and stripped[pos] == "[":
            items = _salvage_items(decoder, stripped, pos + 1)
            try:
                _, pos = decoder.raw_decode(stripped, pos)
            except json.JSONDecodeError:
                out[str(key)] = items
                return out
            out[str(key)] = items
            continue
        try:
            value, pos = decoder.raw_decode(stripped, pos)
        except json.JSONDecodeError:
            return out or None
        out[str(key)] = value


def _skip(text: str, pos: int, separator: str) -> int:
    while pos < len(text) and (text[pos].isspace() or text[pos] == separator):
        pos += 1
    return pos


def _salvage_items(decoder: json.JSONDecoder, text: str, pos: int) -> list[Any]:
    items: list[Any] = []
    while True:
        pos = _skip(text, pos, ",")
        if pos >= len(text) or text[pos] == "]":
            return items
        try:
            item, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return items
        items.append(item)


def parse_body(body: Body) -> tuple[Any, bool]:
    """(JSON value or text, whether the document is whole); a cut document keeps its complete items."""
    text = body.data.decode("utf-8", errors="replace")
    if not text.strip():
        return None, True
    looks_json = "json" in body.content_type or text.lstrip()[:1] in ("{", "[")
    if looks_json:
        try:
            return json.loads(text), True
        except json.JSONDecodeError:
            if body.cut:
                salvaged = salvage_json(text)
                if salvaged is not None:
                    return salvaged, False
    return {"text": text}, not body.cut


def error_text(body: Body, limit: int = 300) -> str:
    """The upstream's own error message (``message``, ``detail``, ...) or the start of its body."""
    data, _ = parse_body(body)
    if isinstance(data, dict):
        for key in ERROR_TEXT_KEYS:
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message") or value.get("type")
            if isinstance(value, str) and value.strip():
                return value.strip()[:limit]
        text = data.get("text") if set(data) == {"text"} else json.dumps(data, ensure_ascii=False)
        return str(text).strip()[:limit]
    return "" if data is None else json.dumps(data, ensure_ascii=False)[:limit]


def retry_after_s(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta seconds or an HTTP date); None when absent or bad."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    from datetime import UTC, datetime

    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def reason_for_status(status: int, has_path_params: bool) -> ReasonCode:
    """The reason code of a non-2xx status (see docs: 404, 401/403, 429/503, other 4xx, 5xx)."""
    if status == 404:
        return ReasonCode.ENTITY_NOT_RESOLVED if has_path_params else ReasonCode.NO_MATCH
    if status in (401, 403, 407):
        return ReasonCode.UPSTREAM_AUTH_FAILED
    if status in (429, 503):
        return ReasonCode.UPSTREAM_UNAVAILABLE
    if status in (400, 405, 406, 409, 411, 412, 413, 414, 415, 422):
        return ReasonCode.INVALID_ARGUMENT
    if status in (408, 504):
        return ReasonCode.TIMEOUT
    return ReasonCode.TOOL_EXECUTION_ERROR


def status_message(status: int, reason: ReasonCode, detail: str, retry_after: float | None) -> str:
    """What the agent reads for a non-2xx answer: the status, what it means, the upstream's words."""
    meaning = {
        ReasonCode.ENTITY_NOT_RESOLVED: "the entity named in the path does not exist upstream",
        ReasonCode.NO_MATCH: "the upstream found nothing at this address",
        ReasonCode.UPSTREAM_AUTH_FAILED: "the upstream API refused the credentials (missing, invalid or "
        "not allowed for this operation)",
        ReasonCode.UPSTREAM_UNAVAILABLE: "the upstream API is overloaded or rate-limited",
        ReasonCode.INVALID_ARGUMENT: "the upstream API rejected the arguments",
        ReasonCode.TIMEOUT: "the upstream API timed out",
        ReasonCode.TOOL_EXECUTION_ERROR: "the upstream API failed",
    }.get(reason, "the upstream API answered with an error")
    text = f"HTTP {status}: {meaning}"
    if retry_after is not None:
        text += f"; retry after {retry_after:.0f} s"
    return text + (f": {detail}" if detail else "")
