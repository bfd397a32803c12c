"""How well an API answers a request: search hits plus the request words its name, title and outputs cover."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from apiatlas.catalog.model import Api
from apiatlas.language.actions import CHANGE_VERBS_EN, participle_verb
from apiatlas.language.catalog import CatalogVocabulary, title_stems
from apiatlas.language.stemming import same_stem
from apiatlas.language.words import EVERY_WORDS, PLAIN_WORDS, PRESENT_NAME, PRESENT_WORDS
from apiatlas.text import query_terms, stem, stems

_STOP = PLAIN_WORDS


_SHOW_ME = re.compile(r"(\b[\w']+\s+)?\bshow(\s+(?:me|us)\b)", re.IGNORECASE)
_NOUN_BEFORE = frozenset({"the", "a", "an", "this", "that", "his", "her", "their", "its"})
_ARTICLES = _NOUN_BEFORE | {"my", "our", "your"}  # a word after one is said as a noun


def plain_verbs(text: str, vocabulary: CatalogVocabulary) -> str:
    """``text`` with "show me" / "show us" read as the verb of asking it is ("give me"), not as the noun
    ("the show Me and You" stays, as does a kind word of the catalog's before it)."""

    def verb(match: re.Match[str]) -> str:
        before = match.group(1) or ""
        if before.strip().lower() in _NOUN_BEFORE or before.strip().lower() in vocabulary.naming:
            return match.group(0)
        return f"{before}give{match.group(2)}"

    return _SHOW_ME.sub(verb, text)


def is_stop_word(word: str) -> bool:
    """Whether a (lower-case) word carries no content of its own ("the", "кому" is not one, "это" is)."""
    return word in _STOP


_WORD = re.compile(r"[\w'’-]+", re.UNICODE)
_FIELD_SPLIT = re.compile(r"[\[\]._{}/ ]+")


DECAY = 3.0  # how fast a request word's weight falls with its distance from what is asked
_WH = {"when", "where", "what", "who", "how", "which", "когда", "где", "кто", "как"}


@dataclass(frozen=True)
class RequestWord:
    """A content word of the request, its stems with those of its expansions, and its place (0 = asked)."""

    word: str
    stems: frozenset[str]
    position: float
    # stems an API's name covers the word by only beside another request word it names ("current":
    # "realtime", said of the thing asked, ``language.words.PRESENT_WORDS``)
    qualifies: frozenset[str] = frozenset()
    # said as a noun (after an article: "a link"): its stems may be the head of a closed compound an API's
    # title says ("a permalink URL"), a kind of that thing (``compound_head``)
    heads: frozenset[str] = frozenset()


def request_words(text: str, drop: list[str], vocabulary: CatalogVocabulary) -> list[RequestWord]:
    """The request's content words in order (stop words and the stated values removed), with expansions.

    Position 0 is what the request asks for: its first words ("the author of ..."), or in a question
    the verb after the last stated value ("When is the lead of X born?"). ``vocabulary``: the catalog's
    synonyms (``CatalogVocabulary.expansion``); ``aliases``: catalog words other words stand for
    (``TitleStats.aliases``: a title's word for a word of the key).
    """
    last_value = max((text.find(piece) + len(piece) for piece in drop if piece and piece in text), default=-1)
    tail = text[last_value:] if last_value >= 0 else ""
    for piece in drop:
        if piece:
            text = text.replace(piece, " ")
    raw = [re.sub(r"['’]s$", "", w.lower()).strip("'’-") for w in _WORD.findall(text)]
    kept = [w for w in raw if w and w not in _STOP and not w.isdigit()]
    kept = list(dict.fromkeys(kept))
    trailing = [re.sub(r"['’]s$", "", w.lower()).strip("'’-") for w in _WORD.findall(tail)]
    trailing = [w for w in trailing if w and w not in _STOP and not w.isdigit()]
    asks_after = bool(raw) and raw[0] in _WH and bool(trailing) and not tail.lstrip().startswith(("'s", "’s"))
    second = _second_question(raw)
    aliases = vocabulary.title_aliases
    nouns = {w for a, w in pairwise(raw) if a in _ARTICLES}
    out = []
    for index, word in enumerate(kept):
        position = index / max(1, len(kept) - 1)
        if (asks_after and word in trailing) or word in second:
            position = 0.0
        stems = query_terms(" ".join([word, *vocabulary.expansion(word).split()]))
        stems += [aliases[t] for t in stems if t in aliases]
        qualifies = frozenset(query_terms(PRESENT_NAME) if word in PRESENT_WORDS else [])
        heads = frozenset(query_terms(word)) if word in nouns else frozenset()
        if stems:
            out.append(RequestWord(word, frozenset(stems), position, qualifies, heads))
    return out


def read_across(words: list[RequestWord], bridged: dict[str, str]) -> list[RequestWord]:
    """``words`` with the catalog's stem beside each stem of a word in another script that the search
    reads as one (``PlanSearch.read_across``: «сервера» also as "server"), so that a Russian request covers an
    English catalog's names, titles and outputs as the English words would."""
    if not bridged:
        return words
    read = [w.stems | {bridged[t] for t in w.stems if t in bridged} for w in words]
    return [
        RequestWord(w.word, stems, w.position, w.qualifies, w.heads)
        for w, stems in zip(words, read, strict=True)
    ]



def verbs_across(words: list[RequestWord]) -> list[RequestWord]:
    """``words`` with the stem of its English verb beside each Russian change verb said
    (``language.actions.CHANGE_VERBS_EN``: «закрепи» covers what "pin" does); the word itself, not its
    stem: the noun «ответ» (an answer) is no "reply" as «ответь» is. A passive participle of one
    (``participle_verb``: «закреплённые сообщения», the pinned messages) covers it too."""
    out = []
    for w in words:
        verb = w.word if w.word in CHANGE_VERBS_EN else "" if w.word.isascii() else participle_verb(w.word)
        said = {stem(CHANGE_VERBS_EN[verb])} if verb else set()
        out.append(RequestWord(w.word, w.stems | said, w.position, w.qualifies, w.heads) if said else w)
    return out


def compound_head(heads: frozenset[str], stems: list[str]) -> bool:
    """Whether one of ``stems`` is a closed compound whose head (its end, as English compounds are headed)
    is one of ``heads``, with at least three letters before it: "permalink" ends in "link"."""
    return any(len(s) - len(h) >= 3 and s.endswith(h) for s in stems for h in heads if len(h) >= 4)


def _second_question(raw: list[str]) -> set[str]:
    """The content words of a second question joined by "and" ("… the most popular item and what is its
    keywords?"): it asks about what the first one names, so its words are what is asked too."""
    for index in range(1, len(raw) - 1):
        if raw[index] in ("and", "и") and raw[index + 1] in _WH:
            return {w for w in raw[index + 2 :] if w not in _STOP and not w.isdigit()}
    return set()


def search_text(words: list[RequestWord]) -> str:
    """What the planner searches for: the request's content words and the stems of their expansions."""
    if not words:
        return ""
    return (
        " ".join(w.word for w in words)
        + " "
        + " ".join(sorted({t for w in words for t in w.stems | w.qualifies}))
    )


def known_words(vocabulary: CatalogVocabulary) -> list[str]:
    """The words the planner itself knows (plain words, the catalog's vocabulary): not misspellings of
    catalog words; "every", "all": no name either)."""
    return sorted({*_STOP, *EVERY_WORDS, *vocabulary.known_words()})


class Terms:
    """Stems of an API's name and title, and of its output fields, with the first four letters of those of
    four letters or more (a request stem of four letters or more meets a differently ended stem only among
    those sharing its first four: looked for only when one does)."""

    __slots__ = ("_field_heads", "_name_heads", "fields", "names")

    def __init__(self, names: set[str], fields: set[str]) -> None:
        self.names = names
        self.fields = fields
        self._name_heads = {s[:4] for s in names if len(s) >= 4}
        self._field_heads = {s[:4] for s in fields if len(s) >= 4}

    def in_names(self, stem: str) -> bool:
        return _has(stem, self.names, self._name_heads)

    def in_fields(self, stem: str) -> bool:
        return _has(stem, self.fields, self._field_heads)


def _has(stem: str, own: set[str], heads: set[str]) -> bool:
    if stem in own:
        return True
    head = stem[:4]
    return len(stem) >= 4 and head in heads and any(u[:4] == head and same_stem(stem, u) for u in own)


def api_terms(api: Api) -> Terms:
    """Stems of what an API is (key without path parameters, title) and of what it returns (output fields)."""
    key = re.sub(r"\{[^}]*\}", " ", api.key)
    columns = [c for t in api.output_tables for c in t.columns[:80]]
    fields = {s for c in columns for s in _field_stems(c.name)}
    # short column descriptions name the field in the documentation's language ("Эмитент")
    fields.update(s for c in columns if 0 < len(c.description) <= 40 for s in _field_stems(c.description))
    return Terms(set(query_terms(f"{key} {api.title}")), fields)


@lru_cache(maxsize=1 << 16)
def _field_stems(text: str) -> tuple[str, ...]:
    """The stems of an output field's name or short description, remembered: the APIs of a catalog repeat
    their fields (an API's fields were stemmed as one text, which no other API's repeated)."""
    return tuple(stems(_FIELD_SPLIT.sub(" ", text)))


FIELD_STRENGTH = 0.8  # a request word found only among an API's output fields, not in its name or title
# a request word the search matched elsewhere on the API's card (its parameters, documentation), not in
# its name, title or outputs (dev plateau 0.2-0.3 on TMDB and the bank without its config)
CARD_STRENGTH = 0.2


@dataclass(frozen=True)
class RankedApi:
    """One API as the snapshot's search ranks it for a request: its key, score, and whether the request
    names it exactly."""

    key: str
    score: float
    exact: bool = False
    matched: frozenset[str] = frozenset()  # the request's stems the API's card matched (any field)


class Relevance:
    """Scores APIs for one request: normalised search score, request words covered, title stems asked for.

    ``hits``: the search's ranking for the request (``PlanSearch.ranked``); ``titles``: each kept API's
    title stems (``language.catalog.title_stems``); ``rarity``: how rare a stem is among the cards (the
    search index's idf)."""

    def __init__(
        self,
        words: list[RequestWord],
        hits: list[RankedApi],
        titles: dict[str, list[str]],
        rarity: Callable[[str], float],
        terms_cache: dict[str, Terms] | None = None,
        meaning: Callable[[], dict[str, float]] = dict,
        meaning_weight: float = 0.0,
    ) -> None:
        self._meaning = meaning  # asked for on the first score: it may still be worked out
        self._near: dict[str, float] | None = None
        self.meaning_weight = meaning_weight
        self.titles = titles
        self.rarity = rarity
        self._terms = terms_cache if terms_cache is not None else {}
        self.decay = DECAY
        self.words = words
        self.terms = list(dict.fromkeys(t for w in words for t in sorted(w.stems)))
        self.lexical: dict[str, float] = {}
        top = max((h.score for h in hits if not h.exact), default=0.0)
        self.matched: dict[str, frozenset[str]] = {}
        for hit in hits:
            self.lexical[hit.key] = 1.0 if hit.exact else (max(hit.score, 0.0) / top if top > 0 else 0.0)
            self.matched[hit.key] = hit.matched
        self._covered: dict[str, dict[int, float]] = {}
        self._precision: dict[str, float] = {}
        self._asked_stems: dict[str, bool] = {}
        self._weights: dict[bool, tuple[list[float], float]] = {}  # ``weighted``'s, by ``late``

    def near(self) -> dict[str, float]:
        """How near in meaning the APIs nearest to the whole request are (``PlanSearch.meaning``)."""
        if self._near is None:
            self._near = self._meaning() if self.meaning_weight else {}
        return self._near

    def hits(self) -> list[str]:
        """API keys found by search, best first."""
        return list(self.lexical)

    def strength(self, api: Api) -> dict[int, float]:
        """The request words (by index) this API covers: 1.0 in its name or title, less in its outputs,
        still less elsewhere on its card (the search's matched words)."""
        if api.key not in self._covered:
            terms = self._terms.get(api.key)
            if terms is None:
                terms = self._terms[api.key] = api_terms(api)
            found: dict[int, float] = {}
            for index, word in enumerate(self.words):
                if any(terms.in_names(t) for t in word.stems):
                    found[index] = 1.0
                elif any(terms.in_fields(t) for t in word.stems):
                    found[index] = FIELD_STRENGTH
                elif word.stems & self.matched.get(api.key, frozenset()):
                    found[index] = CARD_STRENGTH
                if word.heads and found.get(index, 0.0) < 1.0 and self._compound(api, word.heads):
                    found[index] = 1.0
            named = [i for i, strength in found.items() if strength == 1.0]
            for index, word in enumerate(self.words):  # "current weather": the real-time weather API
                if word.qualifies and set(named) - {index} and any(terms.in_names(t) for t in word.qualifies):
                    found[index] = 1.0
            self._covered[api.key] = found
        return self._covered[api.key]

    def _compound(self, api: Api, heads: frozenset[str]) -> bool:
        """Whether the API's title says a closed compound ending in one of ``heads`` (a noun of the
        request): "a link" and "Retrieve a permalink URL" (``compound_head``)."""
        return compound_head(heads, self.titles.get(api.key) or title_stems(api.title))

    def covered(self, api: Api) -> frozenset[int]:
        """The request words (their indexes) this API's name, title or outputs contain."""
        return frozenset(self.strength(api))

    def share(self, covered: dict[int, float]) -> float:
        """The request words covered, each by its strength."""
        return sum(covered.values()) / len(self.words) if self.words else 0.0

    def coverage(self, api: Api) -> float:
        return self.share(self.strength(api))

    def weighted(self, api: Api, late: bool) -> float:
        """Coverage with asked words weighing more (``late``: the last words, what the data belongs to)."""
        if not self.words:
            return 0.0
        if late not in self._weights:
            decay = self.decay
            weights = [math.exp(-decay * (1 - w.position if late else w.position)) for w in self.words]
            self._weights[late] = (weights, sum(weights))
        weights, total = self._weights[late]
        found = self.strength(api)
        return sum(weights[i] * strength for i, strength in found.items()) / total

    def precision(self, api: Api) -> float:
        """The share (weighted by rarity) of the API's title stems that the request asks for."""
        if api.key not in self._precision:
            stems = self.titles.get(api.key) or title_stems(api.title)
            weights = {u: self.rarity(u) for u in stems}
            hit = sum(w for u, w in weights.items() if self._asked(u))
            total = sum(weights.values())
            self._precision[api.key] = hit / total if total else 0.0
        return self._precision[api.key]

    def _asked(self, stem: str) -> bool:
        """Whether a title stem is one of the request's (``same_stem``), cached: titles share stems."""
        asked = self._asked_stems.get(stem)
        if asked is None:
            asked = self._asked_stems[stem] = any(same_stem(t, stem) for t in self.terms)
        return asked

    def score(self, api: Api) -> float:
        """0..~2: half the normalised search score, the asked words covered, title precision."""
        return (
            0.5 * self.lexical.get(api.key, 0.0) + self.weighted(api, late=False) + 0.5 * self.precision(api)
        )

    def nearness(self, key: str) -> float:
        """The API's nearness in meaning to the whole request, weighed (``Weights.meaning``)."""
        return self.meaning_weight * self.near().get(key, 0.0)
