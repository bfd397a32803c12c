"""What the APIs of a snapshot do (an action read off each key) and which dropped APIs a request fits:
the signals by which a search says a request orders what no callable API does."""

from __future__ import annotations

from collections.abc import Mapping

from apiatlas.catalog.actions import key_action, requested_actions
from apiatlas.search.confidence import coverage
from apiatlas.search.lexical import LexicalIndex
from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.text import stem


class ApiActions:
    """The actions of a snapshot's kept (``lexical``) and dropped (``dropped``) APIs, read once."""

    def __init__(
        self, snapshot: CatalogReader, lexical: LexicalIndex | None, dropped: LexicalIndex | None
    ) -> None:
        self.snapshot = snapshot
        self._lexical = lexical
        self._dropped = dropped
        self._key_action: dict[str, str] | None = None

    def key_actions(self) -> dict[str, str]:
        """What each kept and each dropped API does, when its key says it (``catalog.actions``: an HTTP
        operation's list, create, ...; a procedure's open, close, create, ...), read off the keys."""
        if self._key_action is None:
            index = self._lexical
            owners: dict[str, str] = {}
            if index is not None:
                owners.update(zip(index.keys, map(str, index.objects), strict=True))
            if self._dropped is not None:
                titles = self.snapshot.api_titles(self._dropped.keys)
                owners.update((k, titles.get(k, ("", ""))[0]) for k in self._dropped.keys)
            found = {key: key_action(key, obj) for key, obj in owners.items()}
            self._key_action = {k: a for k, a in found.items() if a}
        return self._key_action

    def requested(self, said: list[str]) -> dict[str, str]:
        """The actions the request's words ask for (``catalog.actions.requested_actions``) that some API
        of the catalog, kept or dropped, does (no "create" on a read-only API)."""
        done = set(self.key_actions().values())
        return {a: w for a, w in requested_actions(said).items() if a in done}

    def dropped_fits(
        self, terms: list[str], object_key: str | None = None, asked: Mapping[str, str] | None = None
    ) -> list[tuple[str, str, float, str]]:
        """``(key, funnel stage, rarity-weighted coverage, action)`` of the dropped APIs best fitting
        ``terms``; an action of ``asked`` (``{action: query word}``) covers its query word when the API
        does it ("закрой": ``usp_Order_Close``, "создай": ``usp_Payment_Add``)."""
        dropped = self._dropped
        if dropped is None or not terms:
            return []
        asked = asked or {}
        stands_for = {stem(a): stem(w) for a, w in asked.items()}
        rarity = {t: dropped.idf(t) for t in terms}
        actions = self.key_actions()
        found: list[tuple[str, str, float, str]] = []
        for key, _, matched in dropped.search([*terms, *stands_for], 3):
            if object_key is not None and self.snapshot.api_object(key) != object_key:
                continue
            stage = str(dropped.objects[dropped.keys.index(key)])
            said = [stands_for.get(m, m) for m in matched]
            found.append((key, stage, coverage(said, terms, rarity), actions.get(key, "")))
        return found
