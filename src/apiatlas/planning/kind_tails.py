"""A kind named by the last words of its compound name: a catalog whose kinds are closed compounds
(``storageunitlease``, written ``StorageUnitLease`` in its titles) is asked about "the unit lease X" as
often as about "the storage unit lease X". The words of each kind are read from how the catalog's titles
write it in camel case; a tail of two words or more names the kind when no other kind ends in it and it
names nothing else already; so do the initials of a kind of three words or more ("sul"), as requests
abbreviate long compounds, when no other kind has them and they are no word already."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.text import stem

_CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b")
_PART = re.compile(r"[A-Z][a-z0-9]+")
MIN_WORDS = 2  # a tail of one word ("lease") is said of too many things
MIN_INITIALS = 3  # initials of two words ("sl") are said of too many things


def kind_words(kinds: Collection[str], titles: Iterable[str]) -> dict[str, list[str]]:
    """The words of each closed-compound kind, as the catalog's titles write it (``StorageUnitLease``:
    storage, unit, lease); a kind no title writes in camel case is left out."""
    wanted = set(kinds)
    out: dict[str, list[str]] = {}
    for title in titles:
        for written in _CAMEL.findall(title):
            kind = written.lower()
            if kind in wanted and kind not in out:
                out[kind] = [p.lower() for p in _PART.findall(written)]
    return out


def tail_names(words: Mapping[str, list[str]], taken: Collection[str]) -> dict[str, str]:
    """Request words (the tail's words run together, singular and plural) naming a kind by its last
    ``MIN_WORDS`` or more words, when only that kind ends in them and they are no word in ``taken``
    (the kinds and the words naming them already: "rolebinding" stays its own kind)."""
    tails = {
        kind: ["".join(parts[n:]) for n in range(1, len(parts) - MIN_WORDS + 1)]
        for kind, parts in words.items()
    }
    counts = Counter(t for kind in tails for t in set(tails[kind]))
    out: dict[str, str] = {}
    for kind, said in tails.items():
        for tail in said:
            many = tail + ("es" if tail.endswith(("s", "x", "ch", "sh")) else "s")
            if counts[tail] == 1 and tail not in taken and many not in taken:
                out[tail] = out[many] = kind
    return out


def initial_names(
    words: Mapping[str, list[str]], taken: Collection[str], said_of: Callable[[str, str], bool]
) -> dict[str, str]:
    """Request words naming a kind of ``MIN_INITIALS`` words or more by their initials, singular and plural
    (``StorageUnitLease``: "sul", "suls"), when no other kind has those initials, they are no word in
    ``taken`` (the words naming kinds already, and the words the planner knows) and the catalog says them
    of that kind (``said_of(initials, kind)``: its search finds that kind's operations for them)."""
    said = {kind: "".join(p[0] for p in parts) for kind, parts in words.items() if len(parts) >= MIN_INITIALS}
    counts = Counter(said.values())
    return {
        w: kind
        for kind, initials in said.items()
        if counts[initials] == 1 and initials not in taken and initials + "s" not in taken
        and said_of(initials, kind)
        for w in (initials, initials + "s")
    }


def with_tails(
    vocabulary: CatalogVocabulary, titles: Iterable[str], known: Collection[str] = (),
    said_of: Callable[[str, str], bool] | None = None,
) -> CatalogVocabulary:
    """``vocabulary`` whose kind words also name each closed-compound kind by its tail (``tail_names``) and,
    given ``said_of``, by its initials (``initial_names``; ``known``: words that are no initials)."""
    compound = [k for k in vocabulary.kinds if len(k) >= 2 * 4]  # the shortest run of two words told apart
    if not compound:
        return vocabulary
    words = kind_words(compound, titles)
    tails = tail_names(words, vocabulary.naming.keys())
    initials = initial_names(words, {*vocabulary.naming, *tails, *known}, said_of) if said_of else {}
    if not tails and not initials:
        return vocabulary
    fields = vocabulary.model_dump()  # a new model: the given one's cached word tables stay its own
    expansions = {w: k for w, k in initials.items() if w not in vocabulary.expansions}  # "sul": the kind
    return CatalogVocabulary.model_validate(
        {
            **fields,
            "kind_words": {**initials, **tails, **vocabulary.kind_words},
            "expansions": {**expansions, **vocabulary.expansions},
        }
    )


def tails_said(words: Mapping[str, list[str]], said: Iterable[str]) -> dict[str, str]:
    """The last word of a closed-compound kind said alone (a tail of one word, too often said of other
    things to name a kind by itself: "claim" ends ``PersistentVolumeClaim`` and ``ResourceClaim``) -> that
    kind, where the request ``said`` (lower case) says each of the kind's other words too and no other
    kind's: "the persistent volume behind the claim data-pg-0" names a persistent volume claim."""
    request = set(said)
    found: dict[str, list[str]] = {}
    for kind, parts in words.items():
        if len(parts) >= MIN_WORDS and parts[-1] in request and set(parts[:-1]) <= request:
            found.setdefault(parts[-1], []).append(kind)
    return {tail: kinds[0] for tail, kinds in found.items() if len(kinds) == 1}


def tails_across(words: Mapping[str, list[str]], request: str) -> dict[str, str]:
    """``tails_said`` of the words of ``request``, as stems (the tail's -> the kind's), the way names are
    read after a kind said in other words (``said_names``: ``across``)."""
    said = tails_said(words, (w.lower() for w in re.findall(r"[^\W\d_]+", request)))
    return {stem(tail): stem(kind) for tail, kind in said.items()}
