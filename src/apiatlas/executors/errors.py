"""Typed errors of the executors: bad call arguments and bad chains, each with a reason code and location."""

from __future__ import annotations

from dataclasses import dataclass

from apiatlas.errors import ApiatlasError, Location, ReasonCode


class ValidationError(ApiatlasError):
    """A call's arguments or input tables do not fit the API contract; nothing reached the database."""

    code = ReasonCode.INVALID_ARGUMENT

    def __init__(
        self,
        message: str,
        *,
        api_key: str,
        field: str | None = None,
        code: ReasonCode | None = None,
    ) -> None:
        anchor = f"{api_key}.{field}" if field else api_key
        super().__init__(message, code=code, location=Location(anchor=anchor))
        self.api_key = api_key
        self.field = field


@dataclass(frozen=True)
class ChainProblem:
    """One thing wrong with one step of a chain."""

    step: int
    code: ReasonCode
    message: str

    def __str__(self) -> str:
        return f"step {self.step}: {self.code.value}: {self.message}"


class ChainValidationError(ApiatlasError):
    """A chain cannot run: every problem found in every step, checked before the first step runs."""

    def __init__(self, problems: list[ChainProblem]) -> None:
        if not problems:
            raise ValueError("ChainValidationError needs at least one problem")
        first = problems[0]
        message = "; ".join(str(p) for p in problems)
        super().__init__(message, code=first.code, location=Location(anchor=f"step {first.step}"))
        self.problems = problems
        self.step = first.step
