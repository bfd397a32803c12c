"""The verbs a REST catalog's writes say, from their keys alone (``POST /orders/{order}/void``: void;
``POST /usergroups.disable``: disable): a request may open an action with one the language does not know
("Disable the group …", ``actions.action_verb``)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from apiatlas.language.words import PLAIN_WORDS
from apiatlas.text import stem


def said_verbs(keys: Iterable[str], kinds: Collection[str]) -> frozenset[str]:
    """The verbs a REST catalog's writes say (lower case, as the key says them), from their keys alone:
    the last path segment of an action done to an item (``POST /orders/{order}/void``,
    ``…/nodes/{name}/eviction``) or the operation named after a dot (``POST /usergroups.disable``;
    ``/chat.deleteScheduled`` says delete; the word after it is none: ``/users.deletePhoto``,
    ``/conversations.setTopic`` name a thing). A last segment a ``GET`` path also ends in names a thing, not
    an action (``…/{name}/status``, ``…/{id}/people``; ``GET /customers/{c}/discount`` beside ``DELETE
    /orders/{o}/discount``), as does a ``DELETE``'s (what it deletes), a kind of the catalog or a
    plain word; a procedure catalog's keys (no method) say none."""
    out: set[str] = set()
    kind_stems = {stem(k) for k in kinds}
    pairs = [(m, p.rstrip("/")) for m, _, p in (k.partition(" ") for k in keys) if p.startswith("/")]
    read = {p.rsplit("/", 1)[-1] for m, p in pairs if m in _READ_METHODS}
    for method, path in pairs:
        if method in _READ_METHODS or method == "DELETE" or path.rsplit("/", 1)[-1] in read:
            continue
        parts = path.split("/")
        last, before = parts[-1], parts[-2] if len(parts) > 1 else ""
        if "." in last:
            last = last.rsplit(".", 1)[-1]
        elif not before.startswith("{"):
            continue
        word = _ONE_NAME.fullmatch(last)  # one word, or camel case: not a noun phrase ``bank_accounts``
        said = word.group(1) if word else ""
        if said and len(said) > 2 and said not in PLAIN_WORDS and stem(said) not in kind_stems:
            out.add(said)
    return frozenset(out)


_ONE_NAME = re.compile(r"([a-z]+)(?:[A-Z][a-z]+)*")
_READ_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))
