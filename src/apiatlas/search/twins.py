"""One HTTP operation published under several paths (twins), read off the catalog's keys.

- **Version twins**: the same method and the same path after the last version segment (``v1``,
  ``v2beta1``), under other versions or API groups (``GET /a/v1/things``, ``GET /b/v2/things``). A request
  naming the resource they act on ("things") and no version is served by each: the twins of the
  best-scored one follow it. Not for the other candidates: a pair of every candidate takes two places.
- **Scope twins**: an operation scoped to one item of a collection (``GET /v1/teams/{team}/things``) and
  the same operation without that scope (``GET /v1/things``). A request asking for every item of the
  scope's collection ("things of every team", "across all teams") wants the unscoped one.
- **Variants**: an operation whose path is another's with one more literal segment before its end
  (``GET /v1/archive/things`` beside ``GET /v1/things``). A request that does not say that segment's
  word wants the plain one: the variant ranks under it.

Both are read from the keys once per snapshot (``Twins``), no word of any catalog's own."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from apiatlas.catalog.actions import HTTP_METHODS, _plural, method_and_segments, resource_of
from apiatlas.language.words import EVERY_WORDS

VERSION = re.compile(r"^v\d+(?:(?:alpha|beta)\d*)?$", re.IGNORECASE)
TWIN_SHARE = 0.99  # a version twin's score beside the best-scored one of its group: just under it
VARIANT_SHARE = 0.99  # the most a variant keeps of its plain twin's score: just under it
EVERY_REACH = 2  # "every team", "all the teams", "all of the teams": the scope's name within 2 words


def _method_and_segments(key: str) -> tuple[str, list[str]] | None:
    method, segments = method_and_segments(key)
    if method not in HTTP_METHODS or not key.partition(" ")[2].startswith("/"):
        return None
    return method, segments


def version_twin(key: str) -> str:
    """The key's method and path after its last version segment (``GET things/{id}``): what its version
    twins share; "" for a key with no version segment or nothing but parameters after it (a group's
    root, ``GET /apis/things/v1/``)."""
    read = _method_and_segments(key)
    if read is None:
        return ""
    method, segments = read
    at = [i for i, s in enumerate(segments) if VERSION.match(s)]
    rest = segments[at[-1] + 1 :] if at else []
    if not any(not s.startswith("{") for s in rest):
        return ""
    return f"{method} {'/'.join(rest)}"


def scopes(key: str) -> list[tuple[str, str]]:
    """``(collection, key without the scope)`` for each scope of the key's path: a literal segment
    followed by a parameter, with more of the path after them (``/v1/teams/{team}/things``: "teams",
    ``/v1/things``)."""
    read = _method_and_segments(key)
    if read is None:
        return []
    method, segments = read
    out: list[tuple[str, str]] = []
    for i in range(len(segments) - 2):
        literal, param = segments[i], segments[i + 1]
        if literal.startswith("{") or not param.startswith("{"):
            continue
        rest = segments[:i] + segments[i + 2 :]
        out.append((_word(literal), f"{method} /{'/'.join(rest)}"))
    return out


def insertions(key: str) -> list[tuple[str, str]]:
    """``(word, key without it)`` for each literal segment of the key's path but the last
    (``GET /v1/archive/things``: "archive", ``GET /v1/things``; "v1", ``GET /archive/things``)."""
    read = _method_and_segments(key)
    if read is None:
        return []
    method, segments = read
    return [
        (_word(s), f"{method} /{'/'.join(segments[:i] + segments[i + 1 :])}")
        for i, s in enumerate(segments[:-1])
        if not s.startswith("{")
    ]


def _word(segment: str) -> str:
    return segment.lower().replace("-", "").replace("_", "")


def _names(words: list[str], resource: str) -> bool:
    """Whether the first one, two or three of ``words`` (joined) are ``resource``'s name."""
    return any("".join(words[:n]) in number_forms(resource) for n in range(1, len(words) + 1))


def number_forms(word: str) -> set[str]:
    """A word and its singular readings ("teams": team; "policies": policy; "classes": class, classe):
    every reading of an ending, where ``language.catalog.singular`` gives one."""
    out = {word}
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    if word.endswith("es"):
        out.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
    return out


class Twins:
    """The version twins, scope twins and variants of a catalog's operations, from its keys."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = frozenset(keys)
        groups: dict[str, list[str]] = defaultdict(list)
        for key in sorted(self.keys):
            twin = version_twin(key)
            if twin:
                groups[twin].append(key)
        self.version = {k: tuple(g) for g in groups.values() if len(g) > 1 for k in g}
        self._scopes: dict[str, list[tuple[str, str]]] = {}
        self._plain: dict[str, list[tuple[str, str]]] = {}

    def scoped(self, key: str) -> list[tuple[str, str]]:
        """The key's scopes whose unscoped twin the catalog has (``scopes``)."""
        if key not in self._scopes:
            self._scopes[key] = [(c, k) for c, k in scopes(key) if k in self.keys]
        return self._scopes[key]

    def plain(self, key: str) -> list[tuple[str, str]]:
        """``(word, plain twin)``: the catalog's operations that are this one without one literal
        segment of its path (``insertions``)."""
        if key not in self._plain:
            self._plain[key] = [(w, k) for w, k in insertions(key) if k in self.keys]
        return self._plain[key]

    def every_named(self, said: list[str], collections: set[str], resource: str = "") -> set[str]:
        """The ``collections`` a request asks for every item of: a word of ``EVERY_WORDS`` with the
        collection's name (singular or plural) within ``EVERY_REACH`` words after it. A name in the
        singular right before the operation's own ``resource`` (one word or two or three joined) is a
        word of that resource, not the scope: "all team members of team red" asks for every member."""
        out: set[str] = set()
        for i, word in enumerate(said):
            if word not in EVERY_WORDS:
                continue
            for j in range(i + 1, min(i + 1 + EVERY_REACH, len(said))):
                if resource and not _plural(said[j]) and _names(said[j + 1 : j + 4], resource):
                    continue
                out |= {c for c in collections if said[j] in number_forms(c)}
        return out

    def lift(
        self,
        fused: dict[str, float],
        said: list[str],
        factor: float,
        on_named: Iterable[str] = (),
        read: list[str] | None = None,
    ) -> None:
        """Three readings of twins, in this order:
        - the version twins of each candidate of ``on_named`` (those on a resource the request names)
          get at least ``TWIN_SHARE`` of their group's best score, joining the candidates if need be;
        - when the request asks for every item of a scope's collection, an operation under that scope
          keeps ``factor`` of its score and its unscoped twin gets at least the scoped one's (``read``:
          the request's words as the catalog writes them when read across scripts, ``said`` otherwise);
        - a variant whose word the request does not say (as one word or two or three joined: "test
          helpers" for ``test_helpers``) keeps at most ``VARIANT_SHARE`` of its plain twin's score."""
        best: dict[tuple[str, ...], float] = {}
        for key in on_named:
            group = self.version.get(key)
            if group is not None:
                best[group] = max(best.get(group, 0.0), fused[key])
        for group, score in best.items():
            for key in group:
                fused[key] = max(fused.get(key, 0.0), score * TWIN_SHARE)
        words = read or said
        # no word of ``EVERY_WORDS``: no scope asked for (the scopes are not read, per query)
        found = {k: self.scoped(k) for k in fused} if not EVERY_WORDS.isdisjoint(words) else {}
        every = self.every_named(words, {c for scoped in found.values() for c, _ in scoped})
        for key, scoped in found.items():
            if not any(c in every for c, _ in scoped):
                continue
            # "all team members": the team names the members, not every team (read per operation)
            here = self.every_named(words, {c for c, _ in scoped}, resource_of(key))
            for collection, unscoped in scoped:
                if collection in here:
                    fused[unscoped] = max(fused.get(unscoped, 0.0), fused[key])
                    fused[key] *= factor
        named = {"".join(said[i : i + n]) for n in (1, 2, 3) for i in range(len(said) - n + 1)}
        plain = self._plain  # ``self.plain`` read from its cache without a call (a search's every candidate)
        for key in list(fused):
            cached = plain.get(key)
            for word, twin in self.plain(key) if cached is None else cached:
                if twin in fused and not number_forms(word) & named:
                    fused[key] = min(fused[key], fused[twin] * VARIANT_SHARE)
