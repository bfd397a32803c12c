"""Lists whose items live under a page field (issue 18, chains): ``GET /boxes`` returning ``{data: [...]}``
names its list for no kind (a page of anything), so ``lookups.listed_item`` reads no kind off ``data[].id``.
Asked for the newest of a kind ("the latest box"), the planner reads such a page as holding what its path
lists: a read whose path ends in that kind's collection. Only for the newest asked: read as a holder of its
kind everywhere (each ``items[]`` list as its path's kind), a page list took the place of other lookups."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from apiatlas.planning.lookups import OWN_ID_FIELDS, listed_item, singular_kind
from apiatlas.snapshot.graph_links import Link


def page_kind(key: str, field: str, kinds: Collection[str]) -> str:
    """The kind a page field of a list holds (``data[].id`` of ``GET /boxes``: box): a field of the one top
    list of the output, the list named for no kind of the catalog (``kinds``), of a read whose path ends
    in the plural of a kind; '' otherwise."""
    head, sep, rest = field.partition("[]")
    if not sep or "[]" in rest or "." in head or singular_kind(head) in kinds:
        return ""
    method, _, path = key.partition(" ")
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if method != "GET" or last.startswith("{") or "." in last:
        return ""
    kind = singular_kind(last)
    return kind if kind in kinds and kind != last.lower() else ""


def held_kind(key: str, field: str, kinds: Collection[str], newest: Collection[str]) -> str:
    """The kind of thing a list field holds for the newest asked (``newest``): the one its name says
    (``messages[].ts``: message), else the one its page holds (``page_kind``)."""
    said = listed_item(field)
    if said in newest or not newest:
        return said
    return page_kind(key, field, kinds) or said


def own_id(edges: Iterable[Link], producer: str, kind: str, kinds: Collection[str]) -> Link | None:
    """The edge from a page list of ``kind`` (``producer``) giving its items' own id (``data[].id`` of
    ``GET /boxes`` into a box's input), rather than an id of the kind nested in each item
    (``data[].label.box``, which a name match ranks higher): the listed box is the box asked for."""
    for edge in edges:
        head, _, leaf = edge.producer_field.rpartition("[].")
        own = edge.producer == producer and leaf in OWN_ID_FIELDS and "[]" not in head
        if own and page_kind(producer, edge.producer_field, kinds) == kind:
            return edge
    return None


def asked_page(kind: str, words: Sequence[str], key: str, pages: Mapping[str, Collection[str]]) -> bool:
    """Whether ``key`` is the page list of the kind a request asks for in the plural ("List the boxes": the
    page of ``GET /boxes``, ``pages``: ``page_kind``'s kinds and their lists). Many of a kind are answered by
    their list, not by the read of one item of it."""
    said = any(w.lower() != kind and singular_kind(w) == kind for w in words)
    return bool(kind) and said and key in pages.get(kind, ())
