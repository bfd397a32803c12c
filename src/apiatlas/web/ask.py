"""The Ask page: a conversation with the evidence assistant (``apiatlas.assistant``), server-rendered.

A question is posted by the form (``POST /ask``, from these pages only) and answered by the very entry
point ``apiatlas ask`` and the server's ``POST /ask`` call, ``Assistant.ask``, over the reader's site's
assistant (``assistant.http.server_assistant`` of the reader's core: a role's view behind ``--security``).
The conversation id is scoped to the reader exactly as ``POST /ask`` scopes it (``assistant.http.scoped``);
the browser is redirected to ``GET /ask?c=ID`` (the id lives in the URL and in a hidden form field). The
page shows every turn of the conversation read back from the assistant's trace: the answer, each stated
fact linked to the evidence row it came from (anchors on the page), the coverage report and a trace panel
(a ``<details>`` per stage, with its artifact and latency). Nothing here runs anything but the assistant,
whose executions are the server's read-only chain runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, cast
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from apiatlas.assistant.http import MAX_QUESTION, scoped
from apiatlas.assistant.trace import Turn
from apiatlas.web.app import PageError, SiteFor, link_maker, render
from apiatlas.web.site import WebSite

PRINCIPAL_KEY = "apiatlas.principal"  # set by the gateway's pages (secured.py); one local user otherwise
GUARD_KEY = "apiatlas.ask_guard"  # the gateway's limits, execution slot and audit for one question
Record = Callable[[Turn], None]
AskGuard = Callable[[], AbstractAsyncContextManager[Record]]
LOCAL = "local"  # the principal of a server without --security, as POST /ask names it
_CONVERSATION = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # POST /ask's AskRequest pattern
ROWS_SHOWN = 100  # rows of one evidence table drawn on the page
STAGES = ("interpret", "resolve", "route", "execute", "evidence", "coverage", "compose")


def _principal(request: Request) -> str:
    return str(request.scope.get(PRINCIPAL_KEY) or LOCAL)


def _conversation(text: str | None) -> str | None:
    if not text:
        return None
    if not _CONVERSATION.match(text):
        raise PageError("a conversation id is 1-64 letters, digits or _.:-", status=400)
    return text


def anchor(*parts: Any) -> str:
    """An HTML id from evidence ids, tables and rows (letters, digits and dashes only)."""
    return "-".join(re.sub(r"[^A-Za-z0-9]+", "_", str(p)) for p in parts)


def turns_of(site: WebSite, principal: str, conversation: str) -> list[Turn]:
    """The conversation's turns so far, from the assistant's state (how many) and trace (what)."""
    assistant = site.assistant
    if assistant is None or assistant.trace is None:
        return []
    key = scoped(principal, conversation)
    count = assistant.state.load(key).turns
    found = (assistant.trace.find(f"{key}-{n}") for n in range(1, count + 1))
    return [t for t in found if t is not None]


def stage_artifacts(turn: Turn) -> list[tuple[str, float | None, Any]]:
    """(stage, its latency in ms, its artifact as JSON) for the trace panel, in stage order."""
    artifacts: dict[str, Any] = {
        "interpret": turn.frame.model_dump(mode="json"),
        "resolve": turn.resolution.model_dump(mode="json"),
        "route": turn.plan.model_dump(mode="json") if turn.plan else None,
        "execute": [r.model_dump(mode="json") for r in turn.runs],
        "evidence": turn.evidence.model_dump(mode="json"),
        "coverage": turn.coverage.model_dump(mode="json"),
        "compose": turn.answer.model_dump(mode="json"),
    }
    stages = list(STAGES) + [s for s in turn.latency_ms if s not in STAGES]
    return [(s, turn.latency_ms.get(s), artifacts.get(s)) for s in stages]


def fact_links(turn: Turn, index: int) -> dict[str, tuple[str, str]]:
    """fact id -> (the anchor of the evidence row it came from, what the link says)."""
    return {
        f.fact_id: (anchor("t", index, f.evidence_id, f.table, "r", f.row), f"{f.column} = {f.value}")
        for f in turn.evidence.facts
    }


def statement_links(fact_ids: list[str], facts: dict[str, tuple[str, str]]) -> list[tuple[str, str]]:
    """A statement's fact links, each (row anchor, text) once, in the statement's order."""
    return list(dict.fromkeys(facts[f] for f in fact_ids if f in facts))


def evidence_links(turn: Turn, index: int) -> dict[str, str]:
    """evidence id -> the anchor of its first table of rows on the page."""
    links: dict[str, str] = {}
    for source in turn.evidence.sources:
        links.setdefault(source.evidence_id, anchor("t", index, source.evidence_id, source.table))
    return links


def ask_context(request: Request, site: WebSite, conversation: str | None) -> dict[str, Any]:
    turns = turns_of(site, _principal(request), conversation) if conversation else []
    return {
        "conversation": conversation or "",
        "turns": [
            (turn, stage_artifacts(turn), fact_links(turn, i), evidence_links(turn, i))
            for i, turn in enumerate(turns, 1)
        ],
        "unavailable": site.ask_unavailable if site.assistant is None else None,
        "max_question": MAX_QUESTION,
        "rows_shown": ROWS_SHOWN,
        "anchor": anchor,
        "statement_links": statement_links,
    }


def _same_origin(request: Request) -> bool:
    """A post from these pages (a browser sends Origin on a POST); a post without Origin is let through."""
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host", "")


def ask_routes(site_for: SiteFor) -> list[Route]:
    """``GET /ask`` (the conversation) and ``POST /ask`` (one question asked, then back to the page)."""

    async def endpoint(request: Request) -> Response:
        site = site_for(request)
        try:
            if request.method == "POST":
                return await _ask(request, site)
            conversation = _conversation(request.query_params.get("c"))
            return render(request, site, "ask.html", ask_context(request, site, conversation))
        except PageError as exc:
            return render(request, site, "error.html", {"error": exc}, status=exc.status)

    return [Route("/ask", endpoint, methods=["GET", "POST"], name="ask")]


async def _ask(request: Request, site: WebSite) -> Response:
    if not _same_origin(request):
        raise PageError("ask from these pages", status=403)
    if site.assistant is None:
        raise PageError(site.ask_unavailable, status=409, links=[("ask", "ask")])
    form = await request.form()
    question = str(form.get("question") or "").strip()
    conversation = _conversation(str(form.get("conversation") or "")) or os.urandom(6).hex()
    if not question or len(question) > MAX_QUESTION:
        raise PageError(f"a question is 1 to {MAX_QUESTION} characters", status=400)
    asked = scoped(_principal(request), conversation)
    guard: AskGuard | None = request.scope.get(GUARD_KEY)
    if guard is None:
        turn = await site.assistant.ask(question, asked)
    else:
        from apiatlas.security.limits import LimitBreach

        try:
            async with guard() as record:
                turn = await site.assistant.ask(question, asked)
                record(turn)
        except LimitBreach as breach:
            raise PageError(f"{breach.code.value}: {breach.message}", status=429) from breach
    index = turn.turn_id.rsplit("-", 1)[-1]
    target = link_maker(request)("ask", c=conversation) + f"#turn-{index}"
    return RedirectResponse(target, status_code=303)


class ReadsOnly:
    """A catalog view that enables no write API: everything else is the wrapped view's (a role's)."""

    def __init__(self, view: Any) -> None:
        self._view = view

    def writes_enabled(self, key: str) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._view, name)


def reads_only_core(core: Any) -> Any:
    """``core`` itself when its view enables no write API (the usual case: POST /ask's very core); else a
    core over the same view with writes disabled, so the page's assistant can plan and run reads only."""
    view = core.navigator.snapshot
    if not any(view.writes_enabled(key) for key in view.all_api_keys()):
        return core
    from apiatlas.server.app import atlas_core

    executor = core.execution.executor
    return atlas_core(cast(Any, ReadsOnly(view)), executor, core.config, core.navigator.prefix)


def attach_assistant(site: WebSite, core: Any) -> WebSite:
    """``site`` with the assistant of ``core`` (an ``AtlasTools``: a server's, or a role's behind the
    gateway), built by the same ``server_assistant`` as ``POST /ask``, over a core that runs reads only;
    without an executor the Ask page says that asking needs one. Returns ``site``."""
    from apiatlas.assistant.http import server_assistant
    from apiatlas.snapshot.manifest import serving_of

    if core is None:
        return site
    if core.execution.executor is None:
        reason = serving_of(core.navigator.snapshot.manifest()).no_executor_reason()
        site.ask_unavailable = f"{reason}. {site.ask_unavailable}" if reason else site.ask_unavailable
        return site
    site.assistant = server_assistant(reads_only_core(core))
    return site
