"""What an operation does, said as a request would say it: an HTTP operation's action on its resource
(list, create, ...) and a stored procedure's, read off the verb of its name (open, close, lock, ...)."""

from __future__ import annotations

import re

from apiatlas.catalog.model import Api
from apiatlas.language.actions import (
    ARTICLES,
    BEFORE_A_VERB,
    LOOKUP_WORDS,
    PHRASAL_ACTIONS,
    PROCEDURE_VERBS,
    REQUEST_WORDS,
    is_read_verb,
)
from apiatlas.text import split_identifier

HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})


def api_action(api: Api) -> str:
    """What an API does: an HTTP operation's ``action_of`` its method and path, a procedure's
    ``procedure_action`` of its name; "" when neither says (a read, an RPC method, another verb)."""
    return http_action(api) if api.executor.kind == "http" else procedure_action(api.key, api.object_key)


def key_action(key: str, object_key: str = "") -> str:
    """``api_action`` read off an API's key alone, as search has it: ``METHOD /path`` (the OpenAPI
    source's key is its target) or a procedure's name."""
    return action_of(key) or procedure_action(key, object_key)


def http_action(api: Api) -> str:
    """What an HTTP operation does to its resource (``action_of`` its method and path); "" for an API
    that is not an HTTP operation."""
    return action_of(api.executor.target) if api.executor.kind == "http" else ""


def action_of(operation: str) -> str:
    """What ``METHOD /path`` does to its resource, in the word a request uses for it, from the method and
    the path's shape (REST conventions): ``GET /v1/customers`` list, ``GET /v1/customers/{id}`` retrieve,
    ``POST /v1/customers`` create, ``POST /v1/customers/{id}`` update, ``PUT`` replace, ``PATCH`` update,
    ``DELETE`` delete. A collection is a path whose last segment is a literal plural (``_plural``: not
    "status", "settings"); a ``POST`` to another literal (``/orders/{order}/finalize``,
    ``/secrets/delete``, ``/tax/settings``) names its own action or updates one thing: "", as does an
    RPC method's path (``/chat.postMessage``).
    "" for anything else (a procedure's name)."""
    method, segments = method_and_segments(operation)
    if method not in HTTP_METHODS or not segments:
        return ""
    if "." in segments[-1] and not segments[-1].startswith("{"):
        return ""  # an RPC method (Slack's ``/chat.postMessage``, ``/conversations.list``) says it itself
    item = segments[-1].startswith("{")
    collection = not item and _plural(segments[-1].lower())
    if method == "GET":
        return "list" if collection else "retrieve"
    if method == "POST":
        return "update" if item else "create" if collection else ""
    return {"PUT": "replace", "PATCH": "update", "DELETE": "delete"}[method]


# nouns ending in "s" that name one thing: a settings or status resource is updated, not added to
_ONE_THING = frozenset(("settings", "news", "series", "species", "analytics", "statistics", "metadata"))


def _plural(segment: str) -> bool:
    """A path segment that names a collection: an English plural ("customers", "line_items"), not a
    word whose "s" is no plural ("status", "address", "analysis") nor a plural-only noun ("settings").
    Not ``language.catalog.singular``: that reads "people" as a plural too, which would make
    ``POST …/people`` a create (the compiled catalogs would change)."""
    word = segment.replace("-", "_").rsplit("_", 1)[-1]
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and word not in _ONE_THING


def item_of_collection(operation: str) -> str:
    """The collection an HTTP operation acts on one item of, as one lower-case word: ``GET
    /v1/roles/{name}`` "roles", ``DELETE /v1/price-lists/{id}`` "pricelists"; "" for an
    operation on a collection, on a sub-resource (``/orders/{id}/history``) or anything but
    ``METHOD /path``."""
    method, segments = method_and_segments(operation)
    if method not in HTTP_METHODS or len(segments) < 2:
        return ""
    if not segments[-1].startswith("{") or segments[-2].startswith("{") or not _plural(segments[-2].lower()):
        return ""
    return segments[-2].lower().replace("-", "").replace("_", "")


def ends_in_parameter(operation: str) -> bool:
    """Whether ``METHOD /path`` acts on the one item its path's last parameter names (``GET
    /boxes/{box}``, ``PATCH /boxes/{name}/``)."""
    return operation.rstrip("/").endswith("}")


def resource_of(operation: str) -> str:
    """What an HTTP operation acts on, as one lower-case word: its path's last literal segment
    (``GET /v1/stores/{store}/orders`` "orders", ``…/orders/{order}/history`` "history",
    ``/price-lists/{id}`` "pricelists"); "" for an RPC method's path (``/orders.refund``) and for
    anything but ``METHOD /path`` (a procedure)."""
    method, segments = method_and_segments(operation)
    literals = [s for s in segments if not s.startswith("{")]
    if method not in HTTP_METHODS or not literals or "." in literals[-1]:
        return ""
    return literals[-1].lower().replace("-", "").replace("_", "")


def method_and_segments(operation: str) -> tuple[str, list[str]]:
    """``METHOD /path`` read: the method upper-cased and the path's segments (query left out)."""
    method, _, path = operation.partition(" ")
    return method.upper(), [s for s in path.split("?")[0].strip("/").split("/") if s]


_NAME_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def procedure_action(key: str, object_key: str = "") -> str:
    """The action a procedure's name says with its first verb, past its object's words:
    ``usp_Order_Close`` close, ``usp_Payment_Add`` create, ``usp_Customer_Update`` update; "" for a read
    (``usp_Order_GetByID``, ``usp_Order_CheckCanClose``: the first verb is a read) and for a name with
    no verb of ``PROCEDURE_VERBS``. An HTTP operation's key (``GET /v1/customers``) has none either."""
    if " " in key.strip():
        return ""
    skip = {w.lower() for raw in _NAME_WORD.findall(object_key) for w in split_identifier(raw)}
    for raw in _NAME_WORD.findall(key):
        for word in (w.lower() for w in split_identifier(raw)):
            if word in skip:
                continue
            if is_read_verb(word):
                return ""
            if word in PROCEDURE_VERBS:
                return PROCEDURE_VERBS[word]
    return ""


def requested_actions(query_words: list[str]) -> dict[str, str]:
    """``{action: the query word}`` for the actions a request's words ask for ("remove the coupon":
    delete, said by "remove"; "close the account": close, said by "close"). A word says an action when
    it is a verb: the request's first word, or after "please", "you", "to", "and", "then", "also" ("I
    want to add a card"; "the new add-on" asks for nothing). "show" is no such word: it asks for a list
    as often as for one thing. A verb with its object noun says the action of ``PHRASAL_ACTIONS``
    ("сними блокировку": unlock, said by "сними"; "lift the freeze") before what the verb alone says."""
    said = [w.lower() for w in query_words]
    at = _verb_places(said)
    verbs = [said[n] for n in at]
    found: dict[str, str] = {}
    for n in at:
        nouns = [w for w in said[n + 1 : n + 3] if w not in ARTICLES][:1]
        action = PHRASAL_ACTIONS.get(said[n], {}).get(nouns[0]) if nouns else None
        if action is not None:
            found.setdefault(action, said[n])
    for action, forms in REQUEST_WORDS.items():
        word = next((w for w in verbs if w in forms and w not in found.values()), None)
        if word is not None:
            found.setdefault(action, word)
    return found


def _verb_places(said: list[str]) -> list[int]:
    """Where a (lower-case) request word is in a verb's place: the first word, or after "please", "you",
    "to", "and", "then", "also" (``language.actions.BEFORE_A_VERB``)."""
    return [n for n, w in enumerate(said) if n == 0 or said[n - 1] in BEFORE_A_VERB]


def verb_places(query_words: list[str]) -> list[str]:
    """The request's words in a verb's place (``_verb_places``), lower-case: "reset my password" reset."""
    said = [w.lower() for w in query_words]
    return [said[n] for n in _verb_places(said)]


def lookup_key(query: str) -> list[str]:
    """The words a request names the key of a look-up with, when it gives the key's value: those
    between a word of ``LOOKUP_WORDS`` and the first word with a digit after it, one to three of them
    ("найди заказ по номеру договора ЗК-2025/00009": номеру, договора; "find the store by tax number
    7701234567": tax, number); [] for a request that looks nothing up by a value ("заказы по складу",
    "по 044525225")."""
    tokens = [t.strip(".,;:!?«»\"'()").lower() for t in query.split()]
    for n, token in enumerate(tokens):
        if token not in LOOKUP_WORDS:
            continue
        key: list[str] = []
        for word in tokens[n + 1 : n + 5]:
            if any(ch.isdigit() for ch in word):
                return key if 1 <= len(key) <= 3 else []
            if word and word not in ARTICLES:
                key.append(word)
    return []
