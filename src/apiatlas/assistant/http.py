"""``POST /ask`` beside the MCP endpoint: JSON in (question, conversation id), the turn's
FinalAnswerPackage out. Behind ``--security`` it is authenticated, limited and audited like a tool call,
and a role's assistant plans over the role's view only (it sees only the role's APIs)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from apiatlas.assistant.session import SETTINGS_ENV
from apiatlas.assistant.state import StateUnavailable, is_shared, open_state
from apiatlas.assistant.trace import TraceLog
from apiatlas.assistant.workflow import Assistant, AssistantSettings
from apiatlas.security.limits import LimitBreach
from apiatlas.server.tools import AtlasTools

ASK_PATH = "/ask"
# the conversation state of a server: a SQLite file (default: beside the snapshot) or a redis:// URL that
# the replicas behind one balancer share
STATE_ENV = "APIATLAS_ASSISTANT_STATE"
MAX_QUESTION = 2000


class AskRequest(BaseModel):
    question: str = Field(min_length=1, max_length=MAX_QUESTION)
    conversation_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:-]{1,64}$")


def server_assistant(core: AtlasTools) -> Assistant:
    """The assistant of one served core (a role's view behind the gateway), its state in SQLite or in the
    Redis that ``$APIATLAS_ASSISTANT_STATE`` names."""
    snapshot = core.navigator.snapshot
    base = getattr(snapshot, "path", None)
    beside = (
        Path(str(base)).with_suffix(".assistant.sqlite") if base is not None else Path("assistant.sqlite")
    )
    where = os.environ.get(STATE_ENV) or str(beside)
    settings_file = os.environ.get(SETTINGS_ENV)
    settings = AssistantSettings.load(Path(settings_file) if settings_file else None)
    trace = TraceLog((beside if is_shared(where) else Path(where)).with_suffix(".trace.jsonl"))
    executor = core.execution.executor
    return Assistant(snapshot, executor, state=open_state(where), trace=trace, settings=settings, core=core)


def scoped(principal: str, conversation_id: str) -> str:
    """A conversation id no other principal can continue: the caller's digest in front."""
    return hashlib.sha256(principal.encode()).hexdigest()[:12] + ":" + conversation_id


async def answer(request: Request, assistant: Assistant, principal: str) -> tuple[Response, dict[str, Any]]:
    """The request's question asked; the response and what the audit keeps of it."""
    try:
        body = AskRequest.model_validate_json(await request.body())
    except ValidationError as exc:
        problem = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        refused: dict[str, Any] = {"status": "error", "reason": "INVALID_ARGUMENT", "message": problem}
        return JSONResponse(refused, status_code=400), refused
    conversation = body.conversation_id or os.urandom(6).hex()
    try:
        turn = await assistant.ask(body.question, scoped(principal, conversation))
    except StateUnavailable as exc:
        down: dict[str, Any] = {"status": "error", "reason": exc.code.value, "message": exc.message}
        return JSONResponse(down, status_code=503, headers={"Retry-After": "1"}), down
    package = turn.answer.model_dump(mode="json")
    package["conversation_id"] = conversation
    result: dict[str, Any] = {
        "status": "ok" if turn.answer.outcome.answered else "error",
        "reason": turn.answer.reasons[0].value if turn.answer.reasons else None,
        "evidence_ids": turn.answer.evidence_ids,
    }
    return JSONResponse({"answer": package, "turn_id": turn.turn_id, "total_ms": turn.total_ms}), result


def plain_ask_route(core: AtlasTools) -> Route:
    """``POST /ask`` of a server without ``--security`` (one user, as its MCP endpoint)."""
    holder: list[Assistant] = []

    async def endpoint(request: Request) -> Response:
        if not holder:
            holder.append(server_assistant(core))
        response, _ = await answer(request, holder[0], "local")
        return response

    return Route(ASK_PATH, endpoint, methods=["POST"])


Authenticate = Callable[[Request], Awaitable[tuple[str, str] | Response]]
Admit = Callable[[str, Request], Awaitable[Response | None]]
Record = Callable[[str, str, dict[str, Any], float], None]
Slot = Callable[[], AbstractAsyncContextManager[None]]


def guarded_ask_route(
    authenticate: Authenticate, cores: dict[str, AtlasTools], admit: Admit, record: Record, slot: Slot
) -> Route:
    """``POST /ask`` behind the gateway: ``authenticate`` gives (principal, role) or a refusal, ``admit``
    applies the rate limits, ``slot`` holds an execution slot while the turn runs, ``record`` audits."""
    assistants: dict[str, Assistant] = {}

    async def endpoint(request: Request) -> Response:
        who = await authenticate(request)
        if isinstance(who, Response):
            return who
        principal, role = who
        started = time.perf_counter()
        refused = await admit(principal, request)
        if refused is not None:
            return refused
        if role not in assistants:
            assistants[role] = server_assistant(cores[role])
        try:
            async with slot():  # the assistant executes calls: it holds one of the server's slots
                response, result = await answer(request, assistants[role], principal)
        except LimitBreach as breach:
            result = {"status": "error", "reason": breach.code.value, "message": breach.message}
            response = JSONResponse(result, status_code=503, headers={"Retry-After": "1"})
        record(principal, role, result, (time.perf_counter() - started) * 1000)
        return response

    return Route(ASK_PATH, endpoint, methods=["POST"])


def gateway_ask_route(gateway: Any) -> Route:
    """``POST /ask`` of the authenticated gateway (``security.gateway.SecureGateway``): the bearer
    authentication and roles of its MCP path, the principal's limits, an execution slot, the audit log."""
    from apiatlas.security.auth import AuthError
    from apiatlas.security.roles import role_for

    async def authenticate(request: Request) -> tuple[str, str] | Response:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        try:
            principal, _expires = await gateway.authenticator.authenticate(token or None)
            role = role_for(principal.roles, gateway.security.roles)
            if role is None:
                raise AuthError("no role this server knows", status=403, error="insufficient_scope")
        except AuthError as exc:
            refusal: Response = gateway.challenge(exc)
            return refusal
        return str(principal.name), str(role)

    async def admit(principal: str, request: Request) -> Response | None:
        try:
            gateway.limits.check_request_size(len(await request.body()))
            await gateway.limits.admit(principal, "ask")
        except LimitBreach as breach:
            headers = {"Retry-After": f"{breach.retry_after_s:.0f}"} if breach.retry_after_s else {}
            body = {"status": "error", "reason": breach.code.value, "message": breach.message}
            return JSONResponse(body, status_code=429, headers=headers)
        return None

    def record(principal: str, role: str, result: dict[str, Any], elapsed_ms: float) -> None:
        gateway.guard.audit.record(
            principal=principal, role=role, tool="ask", arguments={}, result=result,
            duration_ms=elapsed_ms, session=None,
        )  # fmt: skip

    cores = {role: server.core for role, server in gateway.servers.items()}
    return guarded_ask_route(
        authenticate, cores, admit, record, lambda: gateway.limits.execution_slot("execute_chain")
    )
