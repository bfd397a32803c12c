"""Out of reach: a request the catalog has neither the words nor the meaning for (issue 18 point 7).

The shared abstention model (``search.confidence``) reads cosines on one scale for every catalog, but
e5 cosines sit at another height for each catalog: an unrelated request's best cosine is 0.87 on one
HTTP spec and a related request's 0.81 on another. So the index pass measures each catalog's own
**null cosine** at build time: the median, over ``NULL_REQUESTS`` requests made of random words of the
embedding model's vocabulary (the same requests for every catalog: language knowledge, no catalog's
words), of their best cosine to the catalog's cards (``measure_reach``). At run time a hybrid search
reads its top cosine against it (``reach_margin``) and the share of the request's content words the
catalog's vocabulary lacks (``absent``: names, ids, quoted text, numbers and function or asking words
aside), and abstains (``out_of_reach``) when the request is written in the catalog's scripts, its best
cosine is no higher than the null's, that cosine stands out little from the dense candidates, its best
lexical hit is weak and a quarter or more of its content words are absent; or when the request is short,
its best word match has no meaning behind it — the card the words rank first is no closer to the request
than random words are to the catalog (``support``), and it is not the card the meaning ranks first — and
no card stands out of the dense candidates (``unsupported_words``; not when one first hit holds every
content word and the words' first card lies within a hair of the meaning's first: ``whole_and_near``);
or when it gives no value (no
name, id or number), none of its content words is the catalog's, only its action and function words
are, and the meaning does not rank first the card the words do (``no_catalog_word``: "schedule a dentist
appointment"); or when none of its content words is held by any of the first hits — or none past its
first word, its verb — and the card its words rank first is no nearer than random words
(``held_by_no_hit``: "create an S3 bucket for backups"). A request with a word in another script than
the catalog's main one (Russian over an English spec, English over a Russian catalog that also
writes Latin identifiers) is judged out of reach only when the catalog has neither its words in any
script — no word of the catalog's script is the catalog's, none of the other script's is read as one —
nor its meaning: its best cosine below the null (``unread_and_far``, «какой сейчас курс доллара?»),
and its meaning picks out no one thing of the catalog (``meaning_gathers``: the first card standing out,
the first dense hits gathered on its business object beyond its share of the catalog, ``gathered``), or
its best cosine at the null give or take ``MAX_MARGIN``, no value given and no card standing out
(``unread_and_unmarked``, «включи музыку»); otherwise its words cannot be weighed against the catalog's
(issue 18 point 6).

The same null reads the other way: a request whose content words one of the first hits all holds, and
whose words' first card stands well above the null, is served whatever the shared model's doubt
(``words_back_the_answer``; in another script, its meaning above the null instead:
``read_across_and_held``); and the second way spares a request that says
many of the catalog's words, most of them held by a first hit (``many_words_held``). This module reads
the signals (``reach_signals``); the rules and their bounds are ``search.reach_rules``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from apiatlas.catalog.actions import resource_of
from apiatlas.language.actions import ACTION_WORDS, CHANGE_VERBS_EN
from apiatlas.language.casing import as_read, before_apostrophe, marked
from apiatlas.language.words import PLAIN_WORDS
from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.value_names import value_names
from apiatlas.text import pieces, stem, stems

if TYPE_CHECKING:
    from apiatlas.search.confidence import SearchView
    from apiatlas.search.embedding import EmbeddingProvider

NULL_REQUESTS = 64  # requests of random words whose best cosine to the cards is the catalog's null
NULL_WORDS = 3  # words per null request
NULL_VOCABULARY = 6000  # drawn from the model vocabulary's first (most frequent) Latin whole words
NULL_SEED = 0

HELD_HITS = 5  # the first hits whose words ``held`` reads

REACH_SIGNALS = (
    "reach_margin",
    "absent",
    "alien",
    "support",
    "length",
    "known",
    "values",
    "unread",
    "held",
    "held_after",
)

# quoted text: double quotes, «», “”, or single quotes outside a word (not the apostrophes of "what's")
_QUOTED = re.compile(r"[\"«“]([^\"»”]+)[\"»”]|(?<!\w)'([^']+)'(?!\w)")


class CatalogReach(BaseModel):
    """A catalog's null cosine, measured by the index pass (``pass_stats.search.reach``)."""

    model_config = ConfigDict(frozen=True)

    null_cosine: float
    requests: int

    @classmethod
    def from_stats(cls, stats: Mapping[str, Any]) -> CatalogReach | None:
        """The reach a snapshot's manifest records (None for one built before it, or without vectors)."""
        found = stats.get("reach")
        return cls.model_validate(found) if isinstance(found, dict) else None


@lru_cache(maxsize=1)
def null_requests() -> tuple[str, ...]:
    """``NULL_REQUESTS`` requests of ``NULL_WORDS`` random words of the bundled model's vocabulary (the
    first ``NULL_VOCABULARY`` Latin words it holds whole: common words of many languages), the same on
    every machine; empty when the model file cannot be read."""
    from apiatlas.search.e5_file import frequent_whole_words

    pool = frequent_whole_words(NULL_VOCABULARY)
    if len(pool) < NULL_WORDS:
        return ()
    rng = np.random.default_rng(NULL_SEED)
    return tuple(" ".join(rng.choice(pool, size=NULL_WORDS, replace=False)) for _ in range(NULL_REQUESTS))


_NULL_VECTORS: dict[str, npt.NDArray[np.float32]] = {}


def _null_vectors(provider: EmbeddingProvider) -> npt.NDArray[np.float32]:
    """The null requests' query vectors (embedded once per process and model)."""
    model = provider.model_id
    if model not in _NULL_VECTORS:
        requests = list(null_requests())
        found = provider.embed_queries(requests) if requests else np.zeros((0, 0), dtype=np.float32)
        _NULL_VECTORS[model] = np.asarray(found, dtype=np.float32)
    return _NULL_VECTORS[model]


def measure_reach(provider: EmbeddingProvider, blobs: list[bytes]) -> CatalogReach | None:
    """The catalog's null cosine from its cards' int8 ``blobs`` (None without cards or null requests)."""
    nulls = _null_vectors(provider)
    if not blobs or not len(nulls):
        return None
    cards = matrix_from_blobs(blobs, len(blobs[0]))
    best = np.max(nulls @ cards.T, axis=1)
    return CatalogReach(null_cosine=round(float(np.median(best)), 4), requests=len(nulls))


@lru_cache(maxsize=256)
def named_stems(query: str) -> frozenset[str]:
    """Stems of the words that name a thing rather than say what is wanted: capitalised inside the
    sentence ("Berlin", "Paramount Pictures"; not a function word: "I", "I'm", "… done. The …"), ids and
    joined names (``web-1``, ``#general``, ``U023``), quoted text."""
    out: set[str] = set()
    for n, word in _words(query):
        if _capitalised(n, word) or marked(word):
            out.update(stems(word))
    return frozenset(out | _quoted(query))


@lru_cache(maxsize=256)
def plain_names(query: str) -> frozenset[str]:
    """Stems of the names that are plain words: capitalised inside the sentence, without a digit or a
    mark, not quoted ("… to Berlin", "… for Bob") — a thing of the world rather than an id or a value the
    request gives the catalog (``web-1``, ``#general``, 'release notes')."""
    quoted = _quoted(query)
    out = {t for n, word in _words(query) if _capitalised(n, word) and not marked(word) for t in stems(word)}
    return frozenset(out - quoted)


def _words(query: str) -> list[tuple[int, str]]:
    """The request's words with their places, read in lower case when its casing says nothing
    (``language.casing``: "LIST ORDERS OF SHOP NORTH" capitalises no name)."""
    return [(n, token.strip(".,!?;:()\"'«»“”")) for n, token in enumerate(as_read(query).split())]


def _capitalised(n: int, word: str) -> bool:
    """A word capitalised inside the sentence, not a function word ("I", "I'm", "… done. The …")."""
    return n > 0 and word[:1].isupper() and before_apostrophe(word) not in PLAIN_WORDS


def _quoted(query: str) -> set[str]:
    return {t for found in _QUOTED.finditer(query) for t in stems(found.group(1) or found.group(2))}


@lru_cache(maxsize=1)
def _plain_stems() -> frozenset[str]:
    return frozenset(s for w in PLAIN_WORDS | ACTION_WORDS for s in stems(w))


@lru_cache(maxsize=1)
def _verbs_across() -> frozenset[str]:
    return frozenset(s for w in CHANGE_VERBS_EN.values() for s in stems(w))


def content_stems(view: SearchView, query: str) -> list[str]:
    """The request's content words: its stems but names, numbers, function, asking and action words, and
    the words of a script the catalog does not write (a foreign word read as a catalog word is that word,
    but a change verb read across, «включи»: enable, says what to do as an action word does, not what
    about: no content word, unless the request writes it itself)."""
    names, plain = named_stems(query), _plain_stems()
    written = {s for w in view.said for s in stems(w)}
    return [
        t
        for t in dict.fromkeys(view.terms)
        if t not in names
        and t not in plain
        and t not in view.foreign
        and not _numeric(t)
        and (t not in _verbs_across() or t in written)
    ]


def _numeric(term: str) -> bool:
    """Whether a stem holds a digit (a number or an id: a value, not a word)."""
    return any(c.isdigit() for c in term)


def _known(view: SearchView, term: str) -> bool:
    return view.vocabulary is not None and (term in view.vocabulary or term in view.corrected)


def absent_share(view: SearchView, query: str, terms: list[str] | None = None) -> float:
    """The share of the request's content words (``terms``, by default ``content_stems``) that no card of
    the catalog has (typos corrected)."""
    terms = content_stems(view, query) if terms is None else terms
    if not terms or view.vocabulary is None:
        return 0.0
    return sum(1 for t in terms if not _known(view, t)) / len(terms)


def gives_value(view: SearchView, query: str) -> bool:
    """Whether the request gives a value: a name, an id, quoted text or a number (``named_stems``)."""
    return bool(named_stems(query)) or any(_numeric(t) for t in view.terms)


def content_held(view: SearchView, query: str, terms: list[str] | None = None) -> float:
    """The largest rarity-weighted share of the request's content words (``terms``, by default
    ``content_stems``; a word no card has weighs as the rarest) that one of the first ``HELD_HITS`` hits
    matches; 1 without content words."""
    terms = content_stems(view, query) if terms is None else terms
    if not terms:
        return 1.0
    weight = {t: view.rarity.get(t, view.max_rarity) if _known(view, t) else view.max_rarity for t in terms}
    total = sum(weight.values()) or 1.0
    best = 0.0
    for key in view.order[:HELD_HITS]:
        matched = set(view.lexical[key][1]) if key in view.lexical else set()
        best = max(best, sum(w for t, w in weight.items() if t in matched) / total)
    return best


def held_after_first(view: SearchView, query: str, content: list[str]) -> float:
    """``content_held`` over the request's words past its first one — its ``content`` words and its plain
    names (``plain_names``): a request's first word is most often its verb, and hits that match it alone
    match what is to be done, not what it is done to ("convert 100 USD to EUR": the conversions of another
    thing). A first word that names what one of the first hits is about (``_hits_things``: "Secrets
    expiring soon", the secrets' read) is the request's object and stays. 1 when no such word is left."""
    said = query.split()
    first = set(stems(said[0])) - _hits_things(view) if said else set()
    names = sorted(plain_names(query) - value_names(query))  # a value is no word a card must hold
    rest = [t for t in dict.fromkeys([*content, *names]) if t not in first]
    return content_held(view, query, rest) if rest else 1.0


def kind_verb(view: SearchView) -> bool:
    """Whether one of the request's action words (not content words: ``content_stems``) names what one of
    the first ``HELD_HITS`` hits is about (``_hits_kinds``): "remind me to …" over a catalog whose first
    hits are its reminders says what about as well as what to do."""
    actions = {t for t in view.terms if t in _action_stems()}
    return bool(actions) and bool(actions & _hits_kinds(view))


def _hits_kinds(view: SearchView) -> set[str]:
    """``_hits_things`` but the words written as an action word itself: a read's ``…/search`` or
    ``…/{box}/scale``, an object named ``search``, say what the operation does, not what it is about
    ("scale the recipe to six servings" over the scale reads); "reminders" is a thing."""
    out: set[str] = set()
    for key in view.order[:HELD_HITS]:
        named = [view.objects.get(key, ""), resource_of(key) if key.startswith("GET ") else ""]
        out.update(stem(w) for text in named for w in pieces(text) if w not in ACTION_WORDS)
    return out


@lru_cache(maxsize=1)
def _action_stems() -> frozenset[str]:
    return frozenset(s for w in ACTION_WORDS for s in stems(w)) - frozenset(
        s for w in PLAIN_WORDS for s in stems(w)
    )


def _hits_things(view: SearchView) -> set[str]:
    """The stems of what the first ``HELD_HITS`` hits are about: their business objects' keys, and the
    resource a read (``GET``) operation's path reads (``catalog.actions.resource_of``: "boxes"; a write's
    last segment is often what it does, ``…/{box}/seal``)."""
    out: set[str] = set()
    for key in view.order[:HELD_HITS]:
        out.update(stems(view.objects.get(key, "")))
        if key.startswith("GET "):
            out.update(stems(resource_of(key)))
    return out


def lexical_support(view: SearchView, null_cosine: float, query: str = "") -> float:
    """The cosine of the card the request's words rank first (highest bm25, exact names aside) minus the
    catalog's null cosine: whether the meaning backs the word match ("call me a taxi" matches the calls'
    cards by one word, and their cosine is a random request's). A card matching only the request's names
    and numbers is no word match ("… to node web-1": a card that says "web" and "1"). Without a lexical
    hit, or for a card without a vector, the best cosine's margin (nothing else to weigh)."""
    top = view.cosines[view.dense_order[0]]
    names = named_stems(query)

    def words(key: str) -> bool:  # whether the card matches a word of the request, not only its values
        return any(t not in names and not _numeric(t) for t in view.lexical[key][1])

    def best(hits: list[tuple[str, float]]) -> str | None:  # the highest bm25, ties by key
        return min(hits, key=lambda kv: (-kv[1], kv[0]))[0] if hits else None

    lexical = [(k, v[0]) for k, v in view.lexical.items() if not v[2]]
    first = best(lexical)
    if first is not None and not words(first):  # rare: look further only then
        first = best([(k, score) for k, score in lexical if words(k)])
    if first is None:
        return top - null_cosine
    return view.cosines.get(first, top) - null_cosine


def gathered(objects: list[str], shares: Mapping[str, float]) -> float:
    """How far the meaning's first hits gather on one thing beyond chance: the share of ``objects`` (the
    business objects of the first ten dense hits, in order) that are the first's, minus that object's
    share of the catalog's APIs (``shares``): a catalog of one object gathers nothing. 0 without hits."""
    if not objects or not objects[0]:
        return 0.0
    first = objects[0]
    return sum(1 for o in objects if o == first) / len(objects) - shares.get(first, 0.0)


def reach_signals(view: SearchView, query: str, reach: CatalogReach | None) -> dict[str, float]:
    """``reach_margin`` (top cosine - the catalog's null cosine), ``absent``, ``alien`` (1 when a word
    is in another script than the catalog's main one), ``support`` (``lexical_support``), ``length``
    (distinct stems without digits), ``known`` (content words the catalog has), ``values`` (1 when the
    request gives a value, ``gives_value``), ``unread`` (foreign words read as no catalog word) and
    ``held`` (``content_held``), ``held_after`` (``held_after_first``), ``kind_verb`` (1 when an action
    word names what a first hit is about, ``kind_verb``) and ``named`` (the stems of the names given as
    values, ``value_names``); empty without a reach or a dense side."""
    if reach is None or not view.dense_order:
        return {}
    top = view.cosines[view.dense_order[0]]
    content = content_stems(view, query)
    return {
        "reach_margin": round(top - reach.null_cosine, 6),
        "absent": round(absent_share(view, query, content), 6),
        "alien": 1.0 if view.alien else 0.0,
        "support": round(lexical_support(view, reach.null_cosine, query), 6),
        "length": float(sum(1 for t in dict.fromkeys(view.terms) if not _numeric(t))),
        "known": float(sum(1 for t in content if _known(view, t))),
        "values": 1.0 if gives_value(view, query) else 0.0,
        "unread": float(len(view.unread - value_names(query))),  # a name given is no word to read
        "held": round(content_held(view, query, content), 6),
        "held_after": round(held_after_first(view, query, content), 6),
        "kind_verb": 1.0 if kind_verb(view) else 0.0,
        "named": float(len(value_names(query))),
    }
