"""Validates the SQL identifiers a call needs (schema, procedure, tables, columns) before any SQL is built."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.errors import ValidationError

# Letters (any script), digits and '_', starting with a letter or '_'; '#' only as a temp-table prefix.
_IDENTIFIER = re.compile(r"^[^\W\d]\w{0,115}$", re.UNICODE)
_TARGET_PART = re.compile(r'"((?:[^"]|"")+)"|\[((?:[^\]]|\]\])+)\]|([^."\[\]]+)')


def check_identifier(name: str, *, api_key: str, what: str) -> str:
    """Return ``name`` if it is a plain identifier (letters, digits, '_'), else raise NOT_EXECUTABLE."""
    if not _IDENTIFIER.match(name):
        raise ValidationError(
            f"{what} name {name!r} of {api_key} is not a plain SQL identifier; refusing to call it",
            api_key=api_key,
            field=name,
            code=ReasonCode.NOT_EXECUTABLE,
        )
    return name


def split_target(api: Api, default_schema: str) -> tuple[str, str]:
    """(schema, routine) of an API's executor target, e.g. ``api."API_X"`` or ``[dbo].[API_X]``.

    An empty target means the convention: the routine named like the API in ``default_schema``.
    """
    target = api.executor.target.strip()
    if not target:
        return (
            check_identifier(default_schema, api_key=api.key, what="schema"),
            check_identifier(api.key, api_key=api.key, what="routine"),
        )
    parts: list[str] = []
    pos = 0
    while pos < len(target):
        match = _TARGET_PART.match(target, pos)
        if match is None:
            break
        quoted, bracketed, plain = match.groups()
        parts.append(
            quoted.replace('""', '"')
            if quoted is not None
            else bracketed.replace("]]", "]")
            if bracketed is not None
            else plain.strip()
        )
        pos = match.end()
        if pos < len(target):
            if target[pos] != ".":
                parts = []
                break
            pos += 1
    if len(parts) == 1:
        parts.insert(0, default_schema)
    if len(parts) != 2:
        raise ValidationError(
            f"executor target {target!r} of {api.key} is not 'schema.routine'",
            api_key=api.key,
            code=ReasonCode.NOT_EXECUTABLE,
        )
    schema, routine = parts
    return (
        check_identifier(schema, api_key=api.key, what="schema"),
        check_identifier(routine, api_key=api.key, what="routine"),
    )


def argument_name(param_name: str, *, api_key: str) -> str:
    """The PostgreSQL argument of a parameter by the convention: ``p_<name lower>``."""
    lower = check_identifier(param_name.lstrip("@"), api_key=api_key, what="parameter").lower()
    return lower if lower.startswith("p_") else f"p_{lower}"
