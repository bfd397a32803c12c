"""A word of the question that names several distinct things of the catalog with no way to choose: the
planner's best chains, nearly tied, end in APIs of different business objects whose titles share the
question's word ("the status of Smith": the person's status, or an account's), and the question names none of
those objects. Derived from the catalog (its business objects' and APIs' titles), for any catalog."""

from __future__ import annotations

from apiatlas.assistant.artifacts import Reading
from apiatlas.assistant.words import CHOICE_ORDINALS, words_of
from apiatlas.language.catalog import title_stems
from apiatlas.language.stemming import same_stem, stem
from apiatlas.planning.model import CandidateChain
from apiatlas.snapshot import CatalogReader
from apiatlas.text import content_terms, query_terms


class ObjectWords:
    """The stems naming each business object of a catalog (its title), read once."""

    def __init__(self, snapshot: CatalogReader) -> None:
        self.snapshot = snapshot
        objects, _ = snapshot.list_objects(0, 10_000)
        self.by_object = {
            o.key: set(content_terms(query_terms(f"{o.key} {getattr(o, 'title', '')}"))) for o in objects
        }  # content words only: "of" in "accounts of customers" names nothing

    def names(self, word: str, object_key: str) -> bool:
        return any(same_stem(word, s) for s in self.by_object.get(object_key, ()))


def several_readings(
    question_stems: list[str], ranked: list[tuple[CandidateChain, float]], objects: ObjectWords, hop: float
) -> tuple[str, list[Reading]] | None:
    """The question's stem several nearly-tied chains read as different things, and those readings (the
    best chain's first); none when the best chain is clearly best or the question names the object.
    Nearly tied: behind the best by no more than the planner's cost of the hops it has more (``hop``, the
    planner's step and edge weights), at least one hop's: longer only, not worse."""
    if len(ranked) < 2:
        return None
    best, top = ranked[0]
    first = _reading(best.api_keys[-1], objects.snapshot)
    if first is None:
        return None
    readings, word = [first], ""
    for chain, score in ranked[1:6]:
        if top - score > hop * max(1, len(chain.steps) - len(best.steps)):
            continue
        other = _reading(chain.api_keys[-1], objects.snapshot)
        if other is None or other.object_key in {r.object_key for r in readings}:
            continue
        both = set(title_stems(first.title)) & set(title_stems(other.title))
        shared = [s for s in question_stems if s in both]
        pair = (first.object_key, other.object_key)
        named = [s for s in question_stems if any(objects.names(s, o) for o in pair)]
        if shared and not named:
            word = word or shared[0]
            readings.append(other)
    return (word, readings[:4]) if len(readings) > 1 else None


def _reading(api_key: str, snapshot: CatalogReader) -> Reading | None:
    api = snapshot.get_api(api_key)
    if api is None:
        return None
    return Reading(api=api.key, object_key=api.object_key, title=api.title or api.key)


def chosen_reading(text: str, readings: list[Reading]) -> int | None:
    """The reading an answer picks: by its number ("второй", "2"), or by words only its title has."""
    words = words_of(text)
    if len(words) <= 3:
        for word in words:
            index = CHOICE_ORDINALS.get(word)
            if index is not None and index <= len(readings):
                return index - 1
    said = [stem(w) for w in words]
    own = []
    for reading in readings:
        others = {s for r in readings if r is not reading for s in title_stems(r.title)}
        mine = [s for s in title_stems(reading.title) if s not in others]
        own.append(sum(1 for s in said if any(same_stem(s, m) for m in mine)))
    best = max(own, default=0)
    return own.index(best) if best and own.count(best) == 1 else None


def surface_of(question: str, word_stem: str) -> str:
    """The question's word with that stem, as written."""
    return next((w for w in words_of(question) if stem(w.replace("ё", "е")) == word_stem), word_stem)
