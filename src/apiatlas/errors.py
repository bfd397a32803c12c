"""Typed errors and diagnostics: every failure carries a location and a reason code."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class ReasonCode(StrEnum):
    """Reason codes shared by build time (diagnostics) and run time (tool results)."""

    # run time (tool results)
    OK = "OK"
    NO_MATCH = "NO_MATCH"
    NO_CONFIDENT_MATCH = "NO_CONFIDENT_MATCH"
    NO_CONFIDENT_PLAN = "NO_CONFIDENT_PLAN"  # plan_chain: the top chain's calibrated confidence is low
    ENTITY_NOT_RESOLVED = "ENTITY_NOT_RESOLVED"
    AMBIGUOUS_ENTITY = "AMBIGUOUS_ENTITY"
    UNKNOWN_API = "UNKNOWN_API"
    UNKNOWN_OBJECT = "UNKNOWN_OBJECT"
    MISSING_REQUIRED_INPUT = "MISSING_REQUIRED_INPUT"
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    SCHEMA_ERROR = "SCHEMA_ERROR"
    NOT_EXECUTABLE = "NOT_EXECUTABLE"
    TOOL_EXECUTION_ERROR = "TOOL_EXECUTION_ERROR"
    UPSTREAM_UNAVAILABLE = "UPSTREAM_UNAVAILABLE"
    UPSTREAM_AUTH_FAILED = "UPSTREAM_AUTH_FAILED"  # an upstream HTTP API refused the credentials (401/403)
    TIMEOUT = "TIMEOUT"
    TRUNCATED = "TRUNCATED"
    UNKNOWN_EVIDENCE = "UNKNOWN_EVIDENCE"
    BAD_CURSOR = "BAD_CURSOR"
    # run time: the assistant (apiatlas ask), the reason codes of its specification (§10) not above
    AMBIGUOUS_BUSINESS_TERM = "AMBIGUOUS_BUSINESS_TERM"
    MISSING_PERIOD = "MISSING_PERIOD"
    MISSING_AS_OF_DATE = "MISSING_AS_OF_DATE"
    MULTIPLE_VALID_INTERPRETATIONS = "MULTIPLE_VALID_INTERPRETATIONS"
    LOW_CONFIDENCE_ENTITY_BINDING = "LOW_CONFIDENCE_ENTITY_BINDING"
    NO_MATCH_IN_SOURCE = "NO_MATCH_IN_SOURCE"  # the document's NO_MATCH_IN_1C: the data holds no such rows
    PARTIAL_MATCH_IN_SOURCE = "PARTIAL_MATCH_IN_SOURCE"  # the document's PARTIAL_MATCH_IN_1C
    INSUFFICIENT_SOURCE_COVERAGE = "INSUFFICIENT_SOURCE_COVERAGE"  # no API of the catalog answers it
    INSUFFICIENT_DOCUMENT_DEPTH = "INSUFFICIENT_DOCUMENT_DEPTH"
    CONFLICTING_EVIDENCE = "CONFLICTING_EVIDENCE"
    MISSING_SUPPORTING_DOCUMENT = "MISSING_SUPPORTING_DOCUMENT"
    EVIDENCE_DEPTH_LIMIT = "EVIDENCE_DEPTH_LIMIT"
    MCP_TIMEOUT = "MCP_TIMEOUT"
    MCP_SCHEMA_ERROR = "MCP_SCHEMA_ERROR"
    INVALID_TOOL_OUTPUT = "INVALID_TOOL_OUTPUT"  # a model role failed its schema: deterministic stage used
    ROUTE_EXECUTION_ABORTED = "ROUTE_EXECUTION_ABORTED"
    QUESTION_UNDER_SPECIFIED = "QUESTION_UNDER_SPECIFIED"
    NEEDS_USER_CONFIRMATION = "NEEDS_USER_CONFIRMATION"
    ASSUMPTION_APPLIED_EXPLICITLY = "ASSUMPTION_APPLIED_EXPLICITLY"
    UNBOUND_CLAIM = "UNBOUND_CLAIM"  # an answer stated a value no evidence row holds: rejected
    # run time: serving many users (security, limits)
    UNAUTHENTICATED = "UNAUTHENTICATED"
    RATE_LIMITED = "RATE_LIMITED"
    BUSY = "BUSY"
    TOO_LARGE = "TOO_LARGE"
    NOT_CONFIRMED = "NOT_CONFIRMED"
    # build time (diagnostics)
    ENCODING_MISMATCH = "ENCODING_MISMATCH"
    UNDECODABLE_FILE = "UNDECODABLE_FILE"
    MALFORMED_PAGE = "MALFORMED_PAGE"
    MISSING_SECTION = "MISSING_SECTION"
    DUPLICATE_KEY = "DUPLICATE_KEY"
    DANGLING_REFERENCE = "DANGLING_REFERENCE"
    UNKNOWN_DOMAIN_TYPE = "UNKNOWN_DOMAIN_TYPE"
    OVERLAY_UNMATCHED = "OVERLAY_UNMATCHED"
    BAD_CONFIG = "BAD_CONFIG"
    REF_OUTSIDE_SOURCE = "REF_OUTSIDE_SOURCE"  # a $ref, overlay or other named path leads outside the source
    INCOMPLETE_CONTRACT = "INCOMPLETE_CONTRACT"  # an API's input or output tables are missing or unparsable
    # snapshot files
    SNAPSHOT_NOT_FOUND = "SNAPSHOT_NOT_FOUND"
    SNAPSHOT_CORRUPT = "SNAPSHOT_CORRUPT"
    SNAPSHOT_VERSION_MISMATCH = "SNAPSHOT_VERSION_MISMATCH"
    # search
    EMBEDDING_MODEL_MISMATCH = "EMBEDDING_MODEL_MISMATCH"
    WORDS_ONLY = "WORDS_ONLY"  # hits ranked by words alone: the query's vector would have waited too long


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Location(BaseModel):
    """Where something was found: a source file (relative to the source root) and an anchor."""

    model_config = ConfigDict(frozen=True)

    file: str | None = None
    line: int | None = None
    anchor: str | None = None  # e.g. API key, table name, section title

    def __str__(self) -> str:
        parts = [self.file or "<unknown>"]
        if self.line is not None:
            parts[0] += f":{self.line}"
        if self.anchor:
            parts.append(self.anchor)
        return " ".join(parts)


class Diagnostic(BaseModel):
    """One build-time finding: never silently dropped, always located."""

    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: ReasonCode
    message: str
    location: Location = Location()

    def __str__(self) -> str:
        return f"{self.severity.value}: {self.code.value}: {self.location}: {self.message}"


class ApiatlasError(Exception):
    """Base error: a reason code, a message and where it happened."""

    code: ReasonCode = ReasonCode.TOOL_EXECUTION_ERROR

    def __init__(self, message: str, *, code: ReasonCode | None = None, location: Location | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.location = location or Location()

    def __str__(self) -> str:
        loc = str(self.location) if self.location != Location() else ""
        return f"{self.code.value}: {loc + ': ' if loc else ''}{self.message}"


class SourceError(ApiatlasError):
    """A source file could not be read or understood."""

    code = ReasonCode.MALFORMED_PAGE


class ConfigError(ApiatlasError):
    """A configuration file or option is invalid."""

    code = ReasonCode.BAD_CONFIG


class SnapshotError(ApiatlasError):
    """A snapshot is missing, corrupt or of an unsupported format version."""

    code = ReasonCode.SCHEMA_ERROR


class SearchError(ApiatlasError):
    """A search index cannot answer: another embedding model, a failing embedding endpoint."""

    code = ReasonCode.EMBEDDING_MODEL_MISMATCH
