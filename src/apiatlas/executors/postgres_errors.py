"""What a psycopg error means for a call: timeout, lost database, privilege, read-only breach, API error."""

from __future__ import annotations

from typing import Any

import psycopg

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import CallResult, ExecutionLimits, error_result
from apiatlas.executors.pooled import first_line

NOT_FOUND_STATES = {"42883", "42P01", "3F000", "42704"}  # undefined function/table/schema/object


def error_for(
    exc: psycopg.Error, api: Api, conn: psycopg.AsyncConnection[Any], limits: ExecutionLimits, started: float
) -> CallResult:
    """Map a database error to a result: timeout, raised API error, missing routine, lost connection."""
    state = exc.sqlstate or ""
    primary = exc.diag.message_primary or first_line(exc)
    if isinstance(exc, psycopg.errors.QueryCanceled):
        return error_result(
            api.key,
            ReasonCode.TIMEOUT,
            f"{api.key} exceeded the {limits.statement_timeout_ms} ms time limit",
            started,
        )
    if conn.broken or conn.closed or isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return error_result(
            api.key, ReasonCode.UPSTREAM_UNAVAILABLE, f"database unavailable: {primary}", started
        )
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return error_result(
            api.key,
            ReasonCode.NOT_EXECUTABLE,
            f"the database refuses {api.key} to this server's login ({primary}): a least-privilege login "
            "may run the kept read APIs only",
            started,
        )
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
        return error_result(
            api.key,
            ReasonCode.TOOL_EXECUTION_ERROR,
            f"{api.key} tried to write in a read-only call ({primary}); nothing was changed",
            started,
        )
    documented = {e.code: e.description for e in api.errors}
    detail = (exc.diag.message_detail or "").strip()
    if state.startswith("P0") or detail in documented:
        message = f"{api.key} failed: {primary}"
        if detail in documented:
            message += (
                f" (error {detail}: {documented[detail]})" if documented[detail] else f" (error {detail})"
            )
        elif detail:
            message += f" ({detail}; not a documented error code of {api.key})"
        if exc.diag.message_hint:
            message += f"; concerns {exc.diag.message_hint}"
        return error_result(
            api.key, ReasonCode.TOOL_EXECUTION_ERROR, message, started, error_code=detail or None
        )
    if state in NOT_FOUND_STATES:
        return error_result(
            api.key,
            ReasonCode.NOT_EXECUTABLE,
            f"{api.key} cannot be called in this database: {primary}",
            started,
        )
    if state.startswith("22"):
        return error_result(
            api.key, ReasonCode.INVALID_ARGUMENT, f"{api.key} rejected a value: {primary}", started
        )
    return error_result(api.key, ReasonCode.TOOL_EXECUTION_ERROR, f"{api.key} failed: {primary}", started)
