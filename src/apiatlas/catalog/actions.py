"""What an HTTP operation does to its resource, said as a request would say it (list, create, ...)."""

from __future__ import annotations

from apiatlas.catalog.model import Api

HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})


def http_action(api: Api) -> str:
    """What an HTTP operation does to its resource (``action_of`` its method and path); "" for an API
    that is not an HTTP operation."""
    return action_of(api.executor.target) if api.executor.kind == "http" else ""


def action_of(operation: str) -> str:
    """What ``METHOD /path`` does to its resource, in the word a request uses for it, from the method and
    the path's shape (REST conventions): ``GET /v1/customers`` list, ``GET /v1/customers/{id}`` retrieve,
    ``POST /v1/customers`` create, ``POST /v1/customers/{id}`` update, ``PUT`` replace, ``PATCH`` update,
    ``DELETE`` delete. A collection is a path whose last segment is a literal ending in "s"; a ``POST`` to
    another literal (``/invoices/{invoice}/finalize``, ``/secrets/delete``) names its own action: "", as
    does an RPC method's path (``/chat.postMessage``).
    "" for anything else (``API_Acc_GetRest``)."""
    method, _, path = operation.partition(" ")
    method = method.upper()
    segments = [s for s in path.split("?")[0].strip("/").split("/") if s]
    if method not in HTTP_METHODS or not segments:
        return ""
    if "." in segments[-1] and not segments[-1].startswith("{"):
        return ""  # an RPC method (Slack's ``/chat.postMessage``, ``/conversations.list``) says it itself
    item = segments[-1].startswith("{")
    collection = not item and segments[-1].lower().endswith("s")
    if method == "GET":
        return "list" if collection else "retrieve"
    if method == "POST":
        return "update" if item else "create" if collection else ""
    return {"PUT": "replace", "PATCH": "update", "DELETE": "delete"}[method]


# the words a request says an action with, as written (base forms: imperative, infinitive), English
# and Russian: "shows" in "TV shows" and "created" in "when was it created" ask for nothing
REQUEST_WORDS: dict[str, tuple[str, ...]] = {
    "list": ("list", "enumerate", "перечисли", "перечислить"),
    "retrieve": ("retrieve", "get", "fetch", "получи", "получить"),
    "create": ("create", "add", "make", "register", "создай", "создать", "добавь", "добавить", "заведи"),
    "update": ("update", "change", "edit", "modify", "rename", "измени", "изменить", "обнови", "обновить"),
    "delete": ("delete", "remove", "erase", "удали", "удалить"),
}


# the words after which a request word is a verb ("can you show", "please add", "and then delete")
_BEFORE_A_VERB = frozenset(
    ("please", "you", "to", "and", "then", "also", "пожалуйста", "и", "затем", "также")
)


def requested_actions(query_words: list[str]) -> dict[str, str]:
    """``{action: the query word}`` for the actions a request's words ask for ("remove the coupon":
    delete, said by "remove"). A word says an action when it is a verb: the request's first word, or
    after "please", "you", "to", "and", "then", "also" ("I want to add a card"; "the new add-on" asks
    for nothing). An action the request already names is left out ("list the invoices" needs no help).
    "show" is no such word: it asks for a list as often as for one thing."""
    said = [w.lower() for w in query_words]
    verbs = [w for n, w in enumerate(said) if n == 0 or said[n - 1] in _BEFORE_A_VERB]
    found: dict[str, str] = {}
    for action, forms in REQUEST_WORDS.items():
        if action in said:
            continue
        word = next((w for w in verbs if w in forms), None)
        if word is not None:
            found[action] = word
    return found
