"""Qualified twins: an operation whose name is another's with a leading namespace before it
(``POST /staff.notes.archive`` beside ``POST /notes.archive``, ``GET /internal/notes/{id}`` beside
``GET /notes/{id}``) does the same thing for a narrower caller; the plain one is what a request means
unless it says the namespace. A namespace is one the catalog puts before several of its operations
(``twin_spaces``): a thing before one list (``/groups.members.list`` beside ``/members.list``: the members
of a group) is no namespace."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from apiatlas.text import stem

MIN_TWINS = 2  # a leading part before this many of the catalog's operations is a namespace


def qualified_twin(key: str, plain: str) -> str:
    """The leading part ``key`` adds before ``plain`` (lower case; '' when ``key`` is no qualified twin of
    ``plain``): the same method, and ``plain``'s dotted operation name (``/a.b``) or path segments
    (``/a/{id}``) are the end of ``key``'s, after one or more literal leading parts."""
    method, _, path = key.partition(" ")
    other_method, _, other = plain.partition(" ")
    if method != other_method or not path.startswith("/") or not other.startswith("/") or path == other:
        return ""
    head, short = path[1:].rstrip("/"), other[1:].rstrip("/")
    if "/" not in short and "/" not in head and head.endswith("." + short):
        return head[: -len(short) - 1].lower()
    if head.endswith("/" + short):
        prefix = head[: -len(short) - 1]
        return "" if "{" in prefix else prefix.lower()
    return ""


def _leading_splits(key: str) -> Iterable[tuple[str, str]]:
    """Every (leading part, plain key) ``key`` may be a qualified twin of, by its own name alone."""
    method, _, path = key.partition(" ")
    head = path[1:].rstrip("/") if path.startswith("/") else ""
    if head and "/" not in head:
        parts = head.split(".")
        for n in range(1, len(parts) - 1):  # the plain one keeps at least two parts ("notes.archive")
            yield ".".join(parts[:n]).lower(), f"{method} /{'.'.join(parts[n:])}"
    elif head:
        parts = head.split("/")
        for n in range(1, len(parts)):
            if "{" in parts[n - 1]:
                return
            yield "/".join(parts[:n]).lower(), f"{method} /{'/'.join(parts[n:])}"


def twin_spaces(keys: Iterable[str]) -> frozenset[str]:
    """The catalog's namespaces: the leading parts that make qualified twins of ``MIN_TWINS`` or more of
    its operations (read from the keys once: each key's leading parts looked up, no pairs compared)."""
    every = list(keys)
    known = set(every)
    counts = Counter(space for key in every for space, plain in _leading_splits(key) if plain in known)
    return frozenset(space for space, n in counts.items() if n >= MIN_TWINS)


def plain_twins(keys: Sequence[str], spaces: Collection[str], words: Collection[str] = ()) -> list[str]:
    """``keys`` without each one that is a qualified twin of another of them by one of the catalog's
    namespaces (``spaces``), unless the request's ``words`` say a word of it ("as staff, archive …")."""
    if not spaces:
        return list(keys)
    said = {stem(w.lower()) for w in words}
    kept = set(keys)
    out = []
    for key in keys:
        found = [q for other in kept if (q := qualified_twin(key, other)) in spaces]
        if found and not any(stem(p) in said for q in found for p in q.replace("/", ".").split(".")):
            continue
        out.append(key)
    return out
