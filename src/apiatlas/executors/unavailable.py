"""The session handed out when the upstream cannot be reached: bad input still gets its own error."""

from __future__ import annotations

import time
from collections.abc import Mapping

from apiatlas.catalog.model import DomainType
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import CallRequest, CallResult, ExecutionLimits, ExecutorSession, error_result
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.validation import validate_call


class UnavailableSession(ExecutorSession):
    """Each call is validated first (the agent learns its own mistakes), then UPSTREAM_UNAVAILABLE."""

    def __init__(self, message: str, limits: ExecutionLimits, types: Mapping[str, DomainType]) -> None:
        self.message = message
        self.limits = limits
        self.types = types

    async def call(self, request: CallRequest) -> CallResult:
        started = time.perf_counter()
        try:
            validate_call(
                request.api, request.args, request.input_tables, limits=self.limits, types=self.types
            )
        except ValidationError as exc:
            return error_result(request.api.key, exc.code, exc.message, started)
        return error_result(request.api.key, ReasonCode.UPSTREAM_UNAVAILABLE, self.message, started)
