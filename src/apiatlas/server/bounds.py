"""Bounds on what a caller may send: request text length, words, value sizes and nesting; bounded echoes.

Every limit answers ``INVALID_ARGUMENT`` at once, before any search, plan or database work, and no
answer repeats unbounded input: what is echoed is cut to ``ECHO_CHARS`` (docs/operations.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from apiatlas.errors import ReasonCode
from apiatlas.executors.value_types import unbindable_character

if TYPE_CHECKING:
    from apiatlas.server.tools.plan_chain import PlanChainResult
    from apiatlas.server.tools.search import SearchResult

MAX_QUERY_CHARS = 2_000  # a search query or a plan request
MAX_QUERY_WORDS = 200
MAX_KNOWN_VALUES = 50  # known values given to plan_chain
MAX_VALUE_CHARS = 4_096  # one known value (as text)
MAX_NESTING = 16  # depth of nested lists and objects in any argument
ECHO_CHARS = 200  # characters of the caller's text an answer repeats


def echo(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` as an answer may repeat it: at most ``limit`` characters, the cut said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def text_problem(text: str, what: str) -> str | None:
    """Why ``text`` (a query or request) is refused, or None: too long, too many words, NUL, surrogates."""
    if len(text) > MAX_QUERY_CHARS:
        return f"the {what} has {len(text)} characters; the limit is {MAX_QUERY_CHARS}"
    words = len(text.split())
    if words > MAX_QUERY_WORDS:
        return f"the {what} has {words} words; the limit is {MAX_QUERY_WORDS}"
    return characters_problem(text, what)


def characters_problem(text: str, what: str) -> str | None:
    """Why ``text`` cannot be read as text, or None: a NUL character or a lone surrogate."""
    found = unbindable_character(text)
    if found is None:
        return None
    suffix = ": not valid Unicode" if found[0] == "a lone surrogate" else ""
    return f"the {what} holds {found[0]}{suffix}"


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """How deep lists and objects nest in ``value`` (counting stops just past ``limit``)."""
    if isinstance(value, Mapping):
        items: list[Any] = list(value.values())
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return 0
    if limit <= 0:
        return 1
    return 1 + max((nesting_depth(item, limit - 1) for item in items), default=0)


def known_values_problem(known: Mapping[str, Any]) -> str | None:
    """Why the known values of a plan request are refused, or None."""
    if len(known) > MAX_KNOWN_VALUES:
        return f"{len(known)} known values; the limit is {MAX_KNOWN_VALUES}"
    for name, value in known.items():
        problem = characters_problem(str(name), "name of a known value")
        if problem:
            return problem
        if len(str(name)) > ECHO_CHARS:
            return f"a known value's name has {len(str(name))} characters; the limit is {ECHO_CHARS}"
        if nesting_depth(value) > 1:
            return f"known value {echo(str(name), 40)!r} is nested; give a plain value"
        text = value if isinstance(value, str) else str(value)
        if len(text) > MAX_VALUE_CHARS:
            size = f"{len(text)} characters; the limit is {MAX_VALUE_CHARS}"
            return f"known value {echo(str(name), 40)!r} has {size}"
        problem = characters_problem(text, f"known value {echo(str(name), 40)!r}")
        if problem:
            return problem
    return None


def refused_search(query: str) -> SearchResult | None:
    """The INVALID_ARGUMENT answer to a search query over the bounds, or None when it is within them."""
    from apiatlas.server.tools.search import SearchResult

    problem = text_problem(query, "query")
    if problem is None:
        return None
    return SearchResult(
        status="error",
        reason=ReasonCode.INVALID_ARGUMENT,
        query=echo(query),
        message=problem,
        next_actions=[f"shorten the query to a few words (at most {MAX_QUERY_WORDS})"],
    )


def refused_plan(request: str, known: Mapping[str, Any]) -> PlanChainResult | None:
    """The INVALID_ARGUMENT answer to a plan request over the bounds, or None when it is within them."""
    from apiatlas.server.tools.plan_chain import PlanChainResult

    problem = text_problem(request, "request") or known_values_problem(known)
    if problem is None:
        return None
    return PlanChainResult(
        status="error",
        reason=ReasonCode.INVALID_ARGUMENT,
        request=echo(request),
        message=problem,
        next_actions=["shorten the request to one sentence, with plain known values"],
    )
