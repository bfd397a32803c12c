"""Value kinds of domain types: which Python value a parameter or column binds as, and its coercion."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from apiatlas.catalog.model import DomainType


class ValueKind(StrEnum):
    """The base kind a value is bound as; decides the SQL type of session-table columns too."""

    INTEGER = "integer"
    NUMBER = "number"
    STRING = "string"
    DATE = "date"
    DATETIME = "datetime"
    BOOLEAN = "boolean"


# Fallback when neither a Param.json_schema nor a DomainType says more: the sample bank's DS* types.
_KNOWN_KINDS: dict[str, ValueKind] = {
    "DSIDENTIFIER": ValueKind.INTEGER,
    "DSTINYINT": ValueKind.INTEGER,
    "DSSMALLINT": ValueKind.INTEGER,
    "DSINT": ValueKind.INTEGER,
    "DSBIGINT": ValueKind.INTEGER,
    "DSFLAG": ValueKind.INTEGER,
    "DSDATE": ValueKind.DATE,
    "DSDATETIME": ValueKind.DATETIME,
    "DSMONEY": ValueKind.NUMBER,
    "DSPRICE": ValueKind.NUMBER,
    "DSQUANTITY": ValueKind.NUMBER,
    "DSPERCENT": ValueKind.NUMBER,
}

# Name-part heuristics for domain types nobody described, checked in order.
_NAME_HINTS: list[tuple[re.Pattern[str], ValueKind]] = [
    (re.compile(r"DATETIME|TIMESTAMP"), ValueKind.DATETIME),
    (re.compile(r"DATE"), ValueKind.DATE),
    (re.compile(r"IDENTIFIER|^DS(?:TINY|SMALL|BIG)?INT(?:EGER)?$|^DSID$"), ValueKind.INTEGER),
    (re.compile(r"MONEY|AMOUNT|SUM$|PRICE|RATE|PERCENT|QUANTITY|DECIMAL|NUMERIC|FLOAT"), ValueKind.NUMBER),
    (re.compile(r"BOOL"), ValueKind.BOOLEAN),
]

# SQL base types (as written in DomainTypes.htm) → kind.
_BASE_TYPE_KINDS: list[tuple[re.Pattern[str], ValueKind]] = [
    (
        re.compile(r"^(?:tiny|small|big)?int(?:eger)?$|^(?:numeric|decimal)\(\s*\d+\s*(?:,\s*0\s*)?\)$"),
        ValueKind.INTEGER,
    ),
    (re.compile(r"^(?:numeric|decimal|money|smallmoney|float|real|double precision)\b"), ValueKind.NUMBER),
    (re.compile(r"^date$"), ValueKind.DATE),
    (re.compile(r"^(?:datetime2?|smalldatetime|timestamp)\b"), ValueKind.DATETIME),
    (re.compile(r"^(?:bit|bool(?:ean)?)$"), ValueKind.BOOLEAN),
]


@dataclass(frozen=True)
class ValueSpec:
    """What one parameter or column accepts: its kind plus the JSON Schema limits that apply."""

    kind: ValueKind
    domain_type: str = ""
    max_length: int | None = None
    min_length: int | None = None
    pattern: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    enum: tuple[Any, ...] | None = None

    def describe(self) -> str:
        """Human-readable expected type, e.g. 'integer (DSIDENTIFIER)'."""
        name = "date (YYYY-MM-DD)" if self.kind is ValueKind.DATE else self.kind.value
        if self.kind is ValueKind.DATETIME:
            name = "date-time (ISO 8601)"
        return f"{name} ({self.domain_type})" if self.domain_type else name


def kind_of_base_type(base_type: str) -> ValueKind | None:
    """The kind implied by a SQL base type such as ``numeric(15,0)``; None when unknown."""
    text = base_type.strip().lower()
    for pattern, kind in _BASE_TYPE_KINDS:
        if pattern.search(text):
            return kind
    if re.match(r"^n?(?:var)?char\b|^text$|^uniqueidentifier$", text):
        return ValueKind.STRING
    return None


def kind_of_schema(schema: Mapping[str, Any]) -> ValueKind | None:
    """The kind implied by a JSON Schema (``type`` and ``format``); None when it says nothing."""
    raw = schema.get("type")
    types = [t for t in raw if t != "null"] if isinstance(raw, list) else [raw]
    kind_name = types[0] if types else None
    if kind_name == "integer":
        return ValueKind.INTEGER
    if kind_name == "number":
        return ValueKind.NUMBER
    if kind_name == "boolean":
        return ValueKind.BOOLEAN
    if kind_name == "string":
        fmt = schema.get("format")
        if fmt == "date":
            return ValueKind.DATE
        if fmt == "date-time":
            return ValueKind.DATETIME
        return ValueKind.STRING
    return None


def kind_of_domain_type(name: str, types: Mapping[str, DomainType] | None = None) -> ValueKind:
    """The kind of a domain type: from the type map when given, else built-in names and name hints."""
    upper = name.strip().upper()
    known = (types or {}).get(name) or (types or {}).get(upper)
    if known is not None:
        kind = kind_of_schema(known.json_schema) or kind_of_base_type(known.base_type)
        if kind is not None:
            return kind
    if upper in _KNOWN_KINDS:
        return _KNOWN_KINDS[upper]
    for pattern, hinted in _NAME_HINTS:
        if pattern.search(upper):
            return hinted
    return ValueKind.STRING


def value_spec(
    domain_type: str,
    json_schema: Mapping[str, Any] | None = None,
    types: Mapping[str, DomainType] | None = None,
) -> ValueSpec:
    """The spec of a parameter or column: its own JSON Schema wins, then the domain type."""
    schema: Mapping[str, Any] = json_schema or {}
    if not schema and types:
        known = types.get(domain_type) or types.get(domain_type.upper())
        schema = known.json_schema if known is not None else {}
    kind = kind_of_schema(schema) or kind_of_domain_type(domain_type, types)
    enum = schema.get("enum")
    minimum, maximum = _num_or_none(schema.get("minimum")), _num_or_none(schema.get("maximum"))
    if kind is ValueKind.INTEGER:  # the storage width bounds what the database can take
        width = integer_range(domain_type, types)
        if width is not None:
            minimum = width[0] if minimum is None else max(minimum, width[0])
            maximum = width[1] if maximum is None else min(maximum, width[1])
    return ValueSpec(
        kind=kind,
        domain_type=domain_type,
        max_length=_int_or_none(schema.get("maxLength")),
        min_length=_int_or_none(schema.get("minLength")),
        pattern=schema.get("pattern") if isinstance(schema.get("pattern"), str) else None,
        minimum=minimum,
        maximum=maximum,
        enum=tuple(enum) if isinstance(enum, list) else None,
    )


_INTEGER_WIDTHS: list[tuple[re.Pattern[str], tuple[int, int]]] = [
    (re.compile(r"^(?:tinyint)$"), (0, 255)),
    (re.compile(r"^(?:smallint|int2|smallserial|serial2)$"), (-(2**15), 2**15 - 1)),
    (re.compile(r"^(?:int|integer|int4|serial|serial4|mediumint)$"), (-(2**31), 2**31 - 1)),
    (re.compile(r"^(?:bigint|int8|bigserial|serial8)$"), (-(2**63), 2**63 - 1)),
]
_DECIMAL_DIGITS = re.compile(r"^(?:numeric|decimal)\(\s*(\d+)\s*(?:,\s*0\s*)?\)$")


def integer_range(domain_type: str, types: Mapping[str, DomainType] | None = None) -> tuple[int, int] | None:
    """The values an integer domain type can store (``integer`` -> int4, ``numeric(15,0)`` -> 15 digits);
    the base type from the type map when it knows ``domain_type``; None when the width is unknown."""
    known = (types or {}).get(domain_type) or (types or {}).get(domain_type.upper())
    for name in (known.base_type if known is not None else "", domain_type):
        text = re.sub(r"\s+", " ", name.strip().lower())
        for pattern, width in _INTEGER_WIDTHS:
            if pattern.match(text):
                return width
        digits = _DECIMAL_DIGITS.match(text)
        if digits:
            top = 10 ** int(digits.group(1)) - 1
            return (-top, top)
    return None


class CoercionError(ValueError):
    """A JSON value does not fit a ValueSpec; the message says what was expected."""


_RU_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_INT_TEXT = re.compile(r"^[+-]?\d+$")


def coerce(value: Any, spec: ValueSpec, max_string_bytes: int) -> Any:
    """The Python value bound for ``spec`` from a JSON value; CoercionError when it does not fit."""
    if value is None:
        return None
    if isinstance(value, str):
        check_text(value)
    coerced = _coerce_kind(value, spec)
    _check_limits(coerced, spec, max_string_bytes)
    return coerced


def _coerce_kind(value: Any, spec: ValueSpec) -> Any:
    kind = spec.kind
    expected = f"expected {spec.describe()}, got {_show(value)}"
    if kind is ValueKind.INTEGER:
        if isinstance(value, bool):  # true is not 1: JSON booleans are not integers
            raise CoercionError(expected)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)
        if isinstance(value, str) and _INT_TEXT.match(value.strip()):
            return int(value.strip())
        raise CoercionError(expected)
    if kind is ValueKind.NUMBER:
        if isinstance(value, bool):
            raise CoercionError(expected)
        if isinstance(value, int | float | str):
            try:
                number = Decimal(str(value).strip())
            except InvalidOperation:
                raise CoercionError(expected) from None
            if not number.is_finite():
                raise CoercionError(expected)
            return number
        raise CoercionError(expected)
    if kind is ValueKind.BOOLEAN:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
            return value.strip().lower() in ("true", "1")
        raise CoercionError(expected)
    if kind is ValueKind.DATE:
        return _parse_date(value, expected)
    if kind is ValueKind.DATETIME:
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value.strip())
            except ValueError:
                raise CoercionError(expected) from None
        raise CoercionError(expected)
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise CoercionError(expected)


def _parse_date(value: Any, expected: str) -> date:
    if not isinstance(value, str):
        raise CoercionError(expected)
    text = value.strip()
    try:
        ru = _RU_DATE.match(text)
        if ru:
            return date(int(ru.group(3)), int(ru.group(2)), int(ru.group(1)))
        if len(text) == 10:
            return date.fromisoformat(text)
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise CoercionError(expected) from None
    if parsed.time() != datetime.min.time():
        raise CoercionError(expected)
    return parsed.date()


def unbindable_character(value: str) -> tuple[str, int] | None:
    """What in ``value`` no database binds and where: a NUL character or a lone surrogate; None if nothing."""
    if "\x00" in value:
        return "a NUL character", value.index("\x00")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return "a lone surrogate", exc.start
    return None


def check_text(value: str) -> None:
    """CoercionError for text no database binds: a NUL character or a lone surrogate."""
    found = unbindable_character(value)
    if found is None:
        return
    what, at = found
    suffix = ": not valid Unicode" if what == "a lone surrogate" else ""
    raise CoercionError(f"the text holds {what} (at {at}){suffix}")


def _check_limits(value: Any, spec: ValueSpec, max_string_bytes: int) -> None:
    if isinstance(value, str):
        check_text(value)
        size = len(value.encode("utf-8"))
        if size > max_string_bytes:
            raise CoercionError(f"string of {size} bytes exceeds the limit of {max_string_bytes} bytes")
        if spec.max_length is not None and len(value) > spec.max_length:
            raise CoercionError(f"string of {len(value)} characters exceeds maxLength {spec.max_length}")
        if spec.min_length is not None and len(value) < spec.min_length:
            raise CoercionError(
                f"string of {len(value)} characters is shorter than minLength {spec.min_length}"
            )
        if spec.pattern is not None and re.search(spec.pattern, value) is None:
            raise CoercionError(f"{_show(value)} does not match the pattern {spec.pattern}")
    if spec.kind is ValueKind.INTEGER and isinstance(value, int) and not -(2**63) <= value < 2**63:
        raise CoercionError(f"{value} does not fit a 64-bit integer")
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        if spec.minimum is not None and value < Decimal(str(spec.minimum)):
            raise CoercionError(f"{value} is below the minimum {spec.minimum}")
        if spec.maximum is not None and value > Decimal(str(spec.maximum)):
            raise CoercionError(f"{value} is above the maximum {spec.maximum}")
    if spec.enum is not None and value not in spec.enum:
        raise CoercionError(f"{_show(value)} is not one of {list(spec.enum)}")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
