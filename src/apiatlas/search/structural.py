"""Exact structural lookup over a code snapshot's documentation IDs, ahead of the hybrid ranking.

``Gtk.Window.SetDefaultSize``, ``Window.SetDefaultSize`` and ``SetDefaultSize`` name a member (every
overload), ``Gtk.Window`` or ``Window`` a type, ``Gtk`` a namespace (its types). A request in words
that carries such a name (``how does SetDefaultSize work``) gets the named entities first too.
"""

from __future__ import annotations

import re
from collections import defaultdict

from apiatlas.code.keys import path_of
from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit

_KIND_ORDER = {"T": 0, "M": 1, "P": 2, "E": 3, "F": 4}
_IDENTIFIER = re.compile(r"^[A-Za-z_][\w`]*(\.[A-Za-z_#][\w`]*)*$")
# a word in a sentence that is a code name: dotted, or with an inner capital (SetDefaultSize, ToJson)
_CODE_WORD = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_#][\w]*)+|[A-Za-z_]*[a-z][A-Z][\w]*|[A-Z][a-z]+[A-Z]\w*")


def _order(key: str) -> tuple[int, int, str]:
    return (_KIND_ORDER.get(key[:1], 5), len(key), key)


class StructuralNames:
    """Every dotted suffix of every key's path (lower-cased) -> the keys; namespaces -> their types."""

    def __init__(self, keys: list[str]) -> None:
        self.by_suffix: dict[str, list[str]] = defaultdict(list)
        self.namespaces: dict[str, list[str]] = defaultdict(list)
        for key in keys:
            if len(key) < 3 or key[1] != ":":
                continue
            parts = path_of(key).lower().split(".")
            for n in range(len(parts)):
                self.by_suffix[".".join(parts[n:])].append(key)
            if key.startswith("T:"):
                for n in range(1, len(parts)):
                    self.namespaces[".".join(parts[:n])].append(key)
        for table in (self.by_suffix, self.namespaces):
            for found in table.values():
                found.sort(key=_order)

    def names_exactly(self, query: str) -> bool:
        """Whether the whole query is one name this index knows (``Gtk.Window.SetDefaultSize``, ``Gtk``)."""
        text = re.sub(r"\(.*\)$", "", re.sub(r"^[TMPEF]:", "", query.strip().strip("`'\""))).rstrip(".")
        lowered = text.lower().replace("`", "")
        return bool(_IDENTIFIER.match(text)) and (lowered in self.by_suffix or lowered in self.namespaces)

    def lookup(self, query: str, limit: int = 10) -> list[str]:
        """The keys the query names exactly: the whole query as a name, else the code names it contains."""
        text = query.strip().strip("`'\"")
        text = re.sub(r"^[TMPEF]:", "", text)
        text = re.sub(r"\(.*\)$", "", text).rstrip(".")
        names = [text] if _IDENTIFIER.match(text) else [m.group(0) for m in _CODE_WORD.finditer(query)]
        found: list[str] = []
        for name in names:
            lowered = name.lower().replace("`", "")
            matches = self.namespaces.get(lowered) or self.by_suffix.get(lowered) or []
            found += [k for k in matches if k not in found]
        return found[:limit]


OVERLOAD_DEPTH = 3  # the ranking a code search asks for, per hit it shows: overloads fold into one hit
# the share of its fused score a type's card keeps in a hybrid ranking: a request in words asks what a member
# does, and the type's card, which names the type and sums up all it does, matched the words the request
# says of the type ("read the number in a spin button": the SpinButton class ranked above SpinButton.Value)
TYPE_SHARE = 0.8


def overload_group(key: str) -> str:
    """What a key's overloads share: its kind and dotted path (``M:Gtk.Window.#ctor``: every constructor)."""
    return key[:2] + path_of(key) if len(key) > 2 and key[1] == ":" else key


def one_per_overload(hits: list[SearchResultHit], limit: int) -> list[SearchResultHit]:
    """The first hit of each overload group, ``limit`` of them (the card lists the other overloads)."""
    seen: set[str] = set()
    kept: list[SearchResultHit] = []
    for hit in hits:
        group = overload_group(hit.api_key)
        if group not in seen:
            seen.add(group)
            kept.append(hit)
    return kept[:limit]


def members_first(outcome: SearchOutcome) -> SearchOutcome:
    """A hybrid ``outcome`` re-ranked with each type's card (``T:``) at ``TYPE_SHARE`` of its score (the
    scores shown unchanged); the lexical and dense rankings as they are."""
    if outcome.mode is not SearchMode.HYBRID:
        return outcome

    def ranked(hits: list[SearchResultHit]) -> list[SearchResultHit]:
        return sorted(hits, key=lambda h: -h.score * (TYPE_SHARE if h.api_key.startswith("T:") else 1.0))

    return outcome.model_copy(update={"hits": ranked(outcome.hits), "ranked": ranked(outcome.ranked)})


def with_structural(
    outcome: SearchOutcome, named: list[str], titles: dict[str, tuple[str, str]], limit: int
) -> SearchOutcome:
    """``outcome`` with the ``named`` keys first (exact hits) and no abstention when any is named; one hit
    per overload group (``outcome`` ranked ``OVERLOAD_DEPTH`` times ``limit`` deep, so ``limit`` remain); in
    a hybrid ranking, members before the cards of their types (``members_first``)."""
    outcome = members_first(outcome)
    if not named:
        folded = {f: one_per_overload(getattr(outcome, f), limit) for f in ("hits", "ranked")}
        return outcome.model_copy(update=folded)
    exact = [
        SearchResultHit(
            api_key=k,
            object_key=titles.get(k, ("", ""))[0],
            title=titles.get(k, ("", ""))[1],
            score=1.0,
            why="exact name",
            exact=True,
        )
        for k in named
    ]
    groups = {overload_group(k) for k in named}  # every named overload is shown, the rest one per group
    rest = [h for h in (outcome.hits or outcome.ranked) if overload_group(h.api_key) not in groups]
    hits = (exact + one_per_overload(rest, limit))[:limit]
    return outcome.model_copy(
        update={"hits": hits, "ranked": hits, "abstained": False, "reason": None, "closest_objects": []}
    )
