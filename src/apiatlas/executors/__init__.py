"""Executors: run API calls and chains against the user's database, one backend module each."""

from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    Executor,
    ExecutorSession,
    TableResult,
)
from apiatlas.executors.chain import (
    ChainResult,
    ChainStep,
    FieldRef,
    StepResult,
    TableMapping,
    run_chain,
    validate_chain,
)
from apiatlas.executors.errors import ChainProblem, ChainValidationError, ValidationError
from apiatlas.executors.registry import executor_for_url, register_executor
from apiatlas.executors.validation import ValidatedCall, validate_call

__all__ = [
    "CallRequest",
    "CallResult",
    "ChainProblem",
    "ChainResult",
    "ChainStep",
    "ChainValidationError",
    "ExecutionLimits",
    "Executor",
    "ExecutorSession",
    "FieldRef",
    "StepResult",
    "TableMapping",
    "TableResult",
    "ValidatedCall",
    "ValidationError",
    "executor_for_url",
    "register_executor",
    "run_chain",
    "validate_call",
    "validate_chain",
]
