"""Roles decide what exists: a role's filtered view of the snapshot, used by navigation and execution alike.

A hidden API is not refused at call time: it is absent from every list, search hit, contract,
dependency edge, entry point and chain step, because the server built for the role reads the
snapshot only through ``RoleView``, which wraps the snapshot and denies by default: a reader method
it does not filter is refused, not inherited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from apiatlas.catalog.model import Api, BusinessObject, DomainType, Edge, EdgeLevel, Playbook, SideEffect
from apiatlas.errors import ApiatlasError, Location, ReasonCode
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex
from apiatlas.security.config import ALL, RoleSettings
from apiatlas.snapshot import Snapshot
from apiatlas.snapshot.graph_links import Link
from apiatlas.snapshot.hits import SearchHit

_MAX_RANK = 4


@dataclass(frozen=True)
class RolePolicy:
    """One role's grants: objects, hidden APIs, tools and enabled write APIs."""

    name: str
    settings: RoleSettings

    def object_granted(self, object_key: str) -> bool:
        return ALL in self.settings.objects or object_key in self.settings.objects

    def api_granted(self, key: str, object_key: str, side_effect: str) -> bool:
        if key in self.settings.hide_apis or not self.object_granted(object_key):
            return False
        if side_effect == SideEffect.READ.value:
            return True
        return ALL in self.settings.write_apis or key in self.settings.write_apis

    def tool_granted(self, tool: str) -> bool:
        return ALL in self.settings.tools or tool in self.settings.tools


class RoleViewRefusal(ApiatlasError, AttributeError):
    """A reader attribute a role's view does not filter: refused, never passed through unfiltered."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"a role's view of the snapshot does not expose {name!r}: only the reader methods it filters "
            "are readable through it (add the method to RoleView, filtered, to use it under roles)",
            code=ReasonCode.TOOL_EXECUTION_ERROR,
            location=Location(anchor=f"RoleView.{name}"),
        )


class RoleView:
    """The snapshot as one role sees it: the ``CatalogReader`` methods, each filtered to the granted objects
    and APIs; any other attribute of the snapshot is refused (``RoleViewRefusal``), so a reader method added
    later is hidden from roles until it is filtered here."""

    def __init__(self, base: Snapshot, policy: RolePolicy, *, writable: bool = False) -> None:
        self._base = base
        self.writable = writable  # the role's server runs on an executor that keeps writes
        self.path = base.path
        self.policy = policy
        rows = base._rows("SELECT key, object_key, kept, side_effect FROM apis ORDER BY key")
        self._visible: dict[str, str] = {}  # api key -> object key
        self._kept: set[str] = set()
        self._writes: set[str] = set()
        for key, obj, kept, side_effect in rows:
            if policy.api_granted(key, obj or "", side_effect or SideEffect.READ.value):
                self._visible[key] = obj or ""
                if (side_effect or SideEffect.READ.value) != SideEffect.READ.value:
                    self._writes.add(key)
                if kept:
                    self._kept.add(key)
        self._hidden_kept = sum(1 for _k, _o, kept, _s in rows if kept) - len(self._kept)
        self._search_index: dict[str, bytes] | None = None
        self._by_object: dict[str, list[str]] = {}
        for key in sorted(self._kept):
            self._by_object.setdefault(self._visible[key], []).append(key)

    def __getattr__(self, name: str) -> Any:
        """Called only for what RoleView does not define: refused, whatever the snapshot has."""
        raise RoleViewRefusal(name)

    def close(self) -> None:
        """The base snapshot owns the connection; closing a view does nothing."""

    def manifest(self) -> dict[str, Any]:
        """The snapshot's manifest (build figures, source kind, embedding model): not per API."""
        return self._base.manifest()

    def source_files(self) -> dict[str, str]:
        """The input files' hashes (check_code compiles against the snapshot's assemblies): not per API."""
        return self._base.source_files()

    def vocabulary(self) -> CatalogVocabulary:
        """The catalog's own words (kinds of things, synonyms): shared vocabulary like types, not APIs."""
        return self._base.vocabulary()

    def get_type(self, name: str) -> DomainType | None:
        """A domain type: types are shared vocabulary, not APIs, so every role reads them."""
        return self._base.get_type(name)

    def visible(self, key: str) -> bool:
        return key in self._visible

    def writes_enabled(self, key: str) -> bool:
        """A write/destructive API this role may run (after the user confirms each call)."""
        return self.writable and key in self._kept and key in self._writes

    # -- business objects and APIs --------------------------------------------------------

    def _granted_objects(self) -> list[BusinessObject]:
        objects, _ = self._base.list_objects(0, 1_000_000)
        return [o for o in objects if self.policy.object_granted(o.key) and self._by_object.get(o.key)]

    def list_objects(self, offset: int = 0, limit: int = 50) -> tuple[list[BusinessObject], int]:
        granted = self._granted_objects()
        return granted[offset : offset + limit], len(granted)

    def object_api_count(self, key: str) -> int:
        return len(self._by_object.get(key, []))

    def object_api_counts(self) -> dict[str, int]:
        return {
            k: len(self._by_object.get(k, [])) for k in self._base.object_api_counts() if self._granted(k)
        }

    def _granted(self, object_key: str) -> bool:
        return self.policy.object_granted(object_key)

    def get_object(self, key: str) -> BusinessObject | None:
        obj = self._base.get_object(key)
        return obj if obj is not None and self._granted(obj.key) else None

    def list_apis(
        self, object_key: str, offset: int = 0, limit: int = 50, include_dropped: bool = False
    ) -> tuple[list[Api], int]:
        if not self._granted(object_key):
            return [], 0
        keys = (
            sorted(k for k, o in self._visible.items() if o == object_key)
            if include_dropped
            else self._by_object.get(object_key, [])
        )
        page = [self._base.get_api(k) for k in keys[offset : offset + limit]]
        return [a for a in page if a is not None], len(keys)

    def all_api_keys(self, include_dropped: bool = False) -> list[str]:
        return sorted(self._visible) if include_dropped else sorted(self._kept)

    def get_api(self, key: str) -> Api | None:
        api = self._base.get_api(key)
        return api if api is not None and api.key in self._visible else None

    def api_object(self, key: str) -> str:
        return self._visible.get(key, "")

    def api_input_schema(self, key: str) -> dict[str, Any] | None:
        return self._base.api_input_schema(key) if key in self._visible else None

    def api_output_schema(self, key: str) -> dict[str, Any] | None:
        return self._base.api_output_schema(key) if key in self._visible else None

    def entry_points(self) -> list[str]:
        return [k for k in self._base.entry_points() if k in self._kept]

    # -- dependency graph -----------------------------------------------------------------

    def _both(self, producer: str, consumer: str) -> bool:
        return producer in self._kept and consumer in self._kept

    def edges_into(self, api_key: str, min_rank: int = _MAX_RANK) -> list[Edge]:
        if api_key not in self._kept:
            return []
        return [e for e in self._base.edges_into(api_key, min_rank) if e.producer in self._kept]

    def edges_out_of(self, api_key: str, min_rank: int = _MAX_RANK) -> list[Edge]:
        if api_key not in self._kept:
            return []
        return [e for e in self._base.edges_out_of(api_key, min_rank) if e.consumer in self._kept]

    def consumers_of(self, api_keys: list[str]) -> dict[str, list[str]]:
        return {key: [e.consumer for e in self.edges_out_of(key)] for key in api_keys}

    def links_into(self, api_key: str) -> list[Link]:
        if api_key not in self._kept:
            return []
        links = self._base.links_into(api_key)
        return [link for link in links if link.producer in self._kept and link.rank <= _MAX_RANK]

    def links_out_of(self, api_key: str) -> list[tuple[str, str, str, str]]:
        return [
            (e.consumer, e.producer_field, e.consumer_field, e.domain_type)
            for e in self.edges_out_of(api_key)
        ]

    def list_links_out_of(self, api_keys: list[str]) -> dict[str, list[tuple[str, str, str]]]:
        return {
            key: [(c, cf, dt) for c, pf, cf, dt in self.links_out_of(key) if "[]" in pf] for key in api_keys
        }

    def edge_links(self, min_rank: int = _MAX_RANK) -> list[tuple[str, str, str, str, EdgeLevel]]:
        return [link for link in self._base.edge_links(min_rank) if self._both(link[0], link[1])]

    def all_edges(self, min_rank: int = _MAX_RANK) -> list[Edge]:
        return [e for e in self._base.all_edges(min_rank) if self._both(e.producer, e.consumer)]

    def list_producers(self) -> list[tuple[str, str]]:
        links = {(p, f) for p, c, f, _, _ in self._base.edge_links() if "[]" in f and self._both(p, c)}
        return sorted(links)

    # -- search ---------------------------------------------------------------------------

    def api_vectors(self) -> list[tuple[str, str, bytes]]:
        return [row for row in self._base.api_vectors() if row[0] in self._kept]

    def api_titles(self, keys: list[str]) -> dict[str, tuple[str, str]]:
        return self._base.api_titles([k for k in keys if k in self._visible])

    def kept_api_names(self) -> list[tuple[str, str]]:
        return [row for row in self._base.kept_api_names() if row[0] in self._kept]

    def search_index(self) -> dict[str, bytes]:
        """The precomputed lexical index without the hidden APIs (their rows and postings removed), and the
        index of dropped APIs (which the search names when it abstains) without the ungranted ones."""
        if self._search_index is None:
            kept = _without_hidden(self._base.search_index(), self._kept)
            self._search_index = _without_hidden(kept, set(self._visible) - self._kept, DROPPED_PREFIX)
        return dict(self._search_index)

    def playbooks(self) -> list[Playbook]:
        """The playbooks this role may follow: granted to it (or every role), naming only APIs it sees."""
        return [
            p
            for p in self._base.playbooks()
            if (not p.roles or self.policy.name in p.roles) and all(a in self._kept for a in p.apis)
        ]

    def search(self, query: str, limit: int = 10, object_key: str | None = None) -> list[SearchHit]:
        """The base search over enough extra hits that ``limit`` visible ones survive the filter."""
        if object_key is not None and not self._granted(object_key):
            return []
        wide = self._base.search(query, limit=limit + self._hidden_kept, object_key=object_key)
        return [h for h in wide if h.api_key in self._kept][:limit]


def _without_hidden(blobs: dict[str, bytes], kept: set[str], prefix: str = "") -> dict[str, bytes]:
    """The ``LexicalIndex`` named by ``prefix`` in ``blobs`` holding only ``kept`` APIs: doc ids renumbered,
    empty terms dropped; the other blobs unchanged."""
    index = LexicalIndex.from_blobs(blobs, prefix)
    if index is None:
        return blobs
    keep = np.array([k in kept for k in index.keys], dtype=bool)
    new_id = (np.cumsum(keep) - 1).astype(np.int32)
    posting_kept = keep[index.docs] if len(index.docs) else np.zeros(0, dtype=bool)
    counts = np.diff(np.concatenate([[0], np.cumsum(posting_kept)])[index.indptr])
    terms = sorted(index.vocab, key=index.vocab.__getitem__)
    live = counts > 0
    filtered = LexicalIndex(
        keys=[k for k, on in zip(index.keys, keep, strict=True) if on],
        objects=index.objects[keep],
        vocab={t: i for i, t in enumerate(t for t, on in zip(terms, live, strict=True) if on)},
        indptr=np.concatenate([[0], np.cumsum(counts[live])]).astype(np.int32),
        docs=new_id[index.docs[posting_kept]],
        weights=index.weights[posting_kept],
    )
    return {**blobs, **{prefix + name: data for name, data in filtered.to_blobs().items()}}


def role_for(roles: tuple[str, ...], configured: dict[str, RoleSettings]) -> str | None:
    """The principal's first role that the config knows, or None (no access)."""
    return next((r for r in roles if r in configured), None)
