"""The text content of a tool answer, beside its structured content, in the form the server is told.

A client that shows the model only the text content needs all of the data there; one that forwards
both the text and the structured content pays for the data twice. So the text has three forms
(``ServerConfig.result_text``, ``apiatlas serve --result-text``):

- ``lines`` (default): the summary, then the data as indented ``key: value`` lines with every list
  of records as one table (a header of the columns once, one ``|``-separated line per record). It
  holds every value of the structured content, in fewer tokens than JSON, whose records repeat
  every key and its quotes.
- ``summary``: the summary only, and a line saying the data is in the structured content: for
  clients that forward the structured content to the model (no data twice).
- ``json``: the summary, then the data as compact JSON (the specification's backwards-compatible
  form, for clients that parse the text).

``apiatlas bench tokens`` prints what each form costs on typical answers, alone and with the
structured content beside it.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from typing import Any, Literal

ResultText = Literal["lines", "summary", "json"]
RESULT_TEXT_FORMS: tuple[ResultText, ...] = ("lines", "summary", "json")
# the form of the answer being rendered: the server sets it per call from its config
result_text_form: ContextVar[ResultText] = ContextVar("result_text_form", default="lines")
STRUCTURED_NOTE = "(the data is in the structured content)"
_INDENT = "  "


def body_text(body: dict[str, Any], form: ResultText) -> str:
    """The data part of an answer's text in ``form`` ("" when there is no data)."""
    if not body:
        return ""
    if form == "summary":
        return STRUCTURED_NOTE
    if form == "json":
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return "\n".join(_lines(body, ""))


def _lines(mapping: dict[str, Any], indent: str) -> list[str]:
    out: list[str] = []
    for key, value in mapping.items():
        out.extend(_field(key, value, indent))
    return out


def _field(key: str, value: Any, indent: str) -> list[str]:
    if isinstance(value, dict):
        if not value:
            return [f"{indent}{key}: {{}}"]
        return [f"{indent}{key}:", *_lines(value, indent + _INDENT)]
    if isinstance(value, list):
        if value and all(isinstance(item, dict) for item in value):
            return _table(key, value, indent)
        return [f"{indent}{key}: {_compact(value)}"]
    return [f"{indent}{key}: {_scalar(value)}"]


def _table(key: str, records: list[dict[str, Any]], indent: str) -> list[str]:
    """Records as a table: the columns (every key, in order of first appearance) once, then one line
    a record; a missing value is an empty cell, a nested one compact JSON."""
    columns: dict[str, None] = {}
    for record in records:
        columns.update(dict.fromkeys(record))
    lines = [f"{indent}{key} ({len(records)}): " + " | ".join(columns)]
    for record in records:
        cells = ("" if name not in record else _cell(record[name]) for name in columns)
        lines.append(f"{indent}{_INDENT}" + " | ".join(cells))
    return lines


def _cell(value: Any) -> str:
    text = _compact(value) if isinstance(value, (dict, list)) else _scalar(value)
    return text.replace("|", "\\|")


def _scalar(value: Any) -> str:
    """A scalar as the model reads it: strings bare unless empty or multi-line (then JSON-quoted),
    numbers and booleans as JSON, null as ``null``."""
    if isinstance(value, str):
        if value and "\n" not in value and value.strip() == value:
            return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
