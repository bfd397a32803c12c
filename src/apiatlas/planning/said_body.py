"""The free text a request gives as the content of a thing it writes ("Post to #general saying the deploy
finished", «напиши в канал general с текстом сборка прошла»): read as one stated value, as if quoted, when a
write the request's head finds takes a text input."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.planning.model import PlanResult
from apiatlas.planning.relevance import read_across, request_words, search_text, verbs_across

if TYPE_CHECKING:
    from apiatlas.planning.retrieval import PlanSearch
    from apiatlas.planning.snapshot_reads import SnapshotCache

# a saying-word or a colon before the text written; the text runs to its sentence's end or a next action
MARK = re.compile(
    r"(?:\b(?:saying|that\s+says|which\s+says"
    r"|with\s+(?:the\s+)?(?:text|message|words|body|description|comment|content|note))\b"
    r"|(?<!\w)(?:с\s+текстом|со\s+словами)(?!\w)"
    r"|(?<=[^\W\d_]):)\s+",
    re.IGNORECASE,
)
_END = re.compile(r"[.!?;](?:\s|$)|,?\s+(?:and\s+then|then|а\s+затем|и\s+потом|затем)\s", re.IGNORECASE)
_QUOTES = re.compile(r"[\"«»“”„]")
_WORD = re.compile(r"\w+")
BODY = "body"  # the kind of value of the text of a thing written (``values``)
DESCRIBED = 3  # a description opening with a text word says the input is one ("Text of the message …")
MIN_WORDS = 2  # "saying hi" is a greeting, no text of a thing written; "saying hi all" is
# what an input of text is called or described as: its name's or description's words
_TEXT_WORDS = frozenset(
    ("text", "message", "body", "content", "comment", "description", "текст", "сообщение")
)


# an input described as an id ("ID of the comment") or as the thing a write acts on, its description
# ending in an infinitive with its preposition ("File comment to add star to."): it names a thing, no text
_ID_WORDS = frozenset(("id", "ids", "identifier", "identifiers", "uuid", "идентификатор"))
_ACTED_ON = re.compile(r"\bto(?:\s+\w+){1,4}\s+(?:to|for|from|on|onto|into|at|in)\W*$", re.IGNORECASE)


def body_span(request: str) -> tuple[int, int] | None:
    """Where the unquoted text after the request's first saying-word or colon starts and ends, if it has
    ``MIN_WORDS`` words and no quote of its own (a quoted text is read as such: ``values._QUOTED``)."""
    mark = MARK.search(request)
    if mark is None:
        return None
    start = mark.end()
    end_mark = _END.search(request, start)
    end = end_mark.start() if end_mark else len(request.rstrip())
    body = request[start:end].strip()
    if len(_WORD.findall(body)) < MIN_WORDS or _QUOTES.search(body):
        return None
    return start, start + len(request[start:end].rstrip())


_MARKED = re.compile(MARK.pattern + "$", re.IGNORECASE)


def marked(before: str) -> bool:
    """Whether the text ``before`` a quote ends in a saying-word or a colon: the quote is a body written."""
    return bool(_MARKED.search(before))


def says_text(name: str, description: str) -> bool:
    """Whether an input's name or the first words of its description say it is a text (a message, a body, a
    comment, a description)."""
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[а-яё]+", name, re.IGNORECASE)}
    said = _WORD.findall(description.lower())
    if _ID_WORDS & (words | set(said[: DESCRIBED + 1])) or _ACTED_ON.search(description):
        return False  # the id of a comment, a comment to star: a thing named, no text written
    return bool(_TEXT_WORDS & (words | set(said[:DESCRIBED])))


def takes_text(api: Api) -> bool:
    """Whether ``api`` writes and has a string input that says it is a text (``says_text``)."""
    return api.side_effect is not SideEffect.READ and any(
        p.json_schema.get("type", "string") == "string" and says_text(p.name, p.description or "")
        for p in api.params
    )


def body_quoted(request: str, heads: Callable[[str], Iterable[Api | None]]) -> str:
    """``request`` with its said body in quotes when one of the writes its head (the words before the body)
    finds (``heads``) takes a text; else ``request`` as it is."""
    span = body_span(request)
    if span is None:
        return request
    start, end = span
    if not any(api is not None and takes_text(api) for api in heads(request[:start])):
        return request
    return f'{request[:start]}"{request[start:end]}"{request[end:]}'


HEADS = 5  # the writes among the search's first this many for the request's head


def head_apis(head: str, search: PlanSearch, cache: SnapshotCache) -> list[Api | None]:
    """The APIs the search ranks first for a request's ``head``, its words read as the planner reads them
    (another script's words as the catalog's: «напиши в канал» finds what "post in channel" does)."""
    words = request_words(head, [], cache.vocabulary)
    words = verbs_across(read_across(words, search.read_across([w.word for w in words]) if words else {}))
    return [cache.api(r.key) for r in search.ranked(search_text(words), limit=HEADS)] if words else []


def body_planned(
    request: str, planned: Callable[[str], PlanResult], search: PlanSearch, cache: SnapshotCache
) -> PlanResult:
    """The plan of ``request`` (``planned``), or of it with its said body quoted (``body_quoted``) when that
    plan writes the body at the same target (``writes_body``); a request with no body is planned once."""
    said = body_quoted(request, lambda head: head_apis(head, search, cache))
    plain = planned(request)
    if said == request:
        return plain
    quoted = planned(said)
    written = lambda key: (api := cache.api(key)) is not None and api.side_effect is not SideEffect.READ  # noqa: E731
    kept = writes_body(quoted, plain, written)
    elapsed = round(plain.elapsed_ms + quoted.elapsed_ms, 3)  # both plans ran: the time is theirs
    unclear = [u.replace(said, request) for u in quoted.unclear] if kept else plain.unclear  # as said
    return (quoted if kept else plain).model_copy(
        update={"request": request, "elapsed_ms": elapsed, "unclear": unclear}
    )


def writes_body(quoted: PlanResult, plain: PlanResult, written: Callable[[str], bool]) -> bool:
    """Whether the top chain of ``quoted`` (planned with the body quoted) ends where that of ``plain`` (the
    request as said) does and writes the body into an input of one of its writes (``written``: whether an
    API key is one): else the body was no text of the thing written (a read's search took it: «customers
    with description vip client»), or its being a value drew the plan to another write."""
    body = next((v.value for v in quoted.values if v.kind == BODY), None)
    ends = [r.chains[0].target for r in (quoted, plain) if r.chains]
    if body is None or len(ends) < 2 or ends[0] != ends[1]:
        return False
    return any(i.value == body for s in quoted.chains[0].steps if written(s.api) for i in s.inputs)
