"""What a named thing of a request is, from the words around it and the catalog's words for its kinds
("the book X" → book, "written by X" → person); read by ``values.extract_values``."""

from __future__ import annotations

import re

from apiatlas.language.catalog import CatalogVocabulary, singular
from apiatlas.language.words import PERSON

_RELATIVES = {"that", "which", "who"}
_PRONOUNS = [["his"], ["her"], ["him"], ["himself"], ["herself"]]
_LINKS = [["in"], ["and"], ["with"], ["on"], ["for"], ["about"]]


def _naming(vocabulary: CatalogVocabulary) -> dict[str, str]:
    """The catalog's words for its kinds, its numbered parts as their owners' kind ("chapter 2 of X": X
    is what the chapter belongs to), and "by" as a person ("written by X")."""
    return {**{p: k for p, k in vocabulary.parts.items()}, **vocabulary.naming, "by": PERSON}


def entity_hint(text: str, name: str, vocabulary: CatalogVocabulary) -> str:
    """What a named thing is, from the words around it and the catalog's words for its kinds: "the book
    X" → book, "written by X" → person, "X's latest book" → person, "the author of X" → not-person (a
    role of ``vocabulary.roles``), "the books X wrote" → person (a verb of ``vocabulary.person_verbs``),
    "the label that released X" → not-label, "X in his latest book" → person, "chapter 2 of X" → the
    chapter's owner, "Who is older, X or Y?" → person."""
    at = text.find(name)
    if at < 0:
        return ""
    naming = _naming(vocabulary)
    before = [w.lower() for w in re.findall(r"[A-Za-z']+", text[:at])]
    after = [w.lower() for w in re.findall(r"[A-Za-z']+", text[at + len(name) :])]
    while before and before[-1] in ("the", "a", "an", "called", "named"):
        before.pop()
    acts = bool(after) and after[0] in vocabulary.person_verbs  # "the books has X written": a person
    if (
        before
        and before[-1] in naming
        and not text[:at].rstrip().endswith(",")
        and not (acts and before[-1] in vocabulary.plural_words)  # "the books X wrote": they are not X
    ):
        return str(naming[before[-1]])
    if text[at + len(name) :].startswith(("'s", "’s")):
        return PERSON
    if after and after[0] in vocabulary.kind_set and after[0] != PERSON:
        return str(after[0])  # "X label": X is a label
    if (
        before
        and before[-1] in ("of", "in", "from", "to")
        and len(before) > 1
        and before[-2] in vocabulary.roles
    ):
        return "-" + PERSON  # "the author of X wrote": the author did, X is the author's work
    if acts:
        return PERSON
    if len(before) > 2 and before[-2] in _RELATIVES and before[-3] in naming and before[-3] != "by":
        return "-" + naming[before[-3]]  # "the label that released X": X is what it released
    if after[:1] in _PRONOUNS or (after[:1] in _LINKS and after[1:2] in _PRONOUNS):
        return PERSON  # "X in his most popular book": the pronoun names X a person
    linked = before[-1:] in (["of"], ["does"], ["do"], ["did"])
    near = [*before[-1:], *(before[-2:-1] if linked else []), *after[:1]]
    parts = vocabulary.parts
    owner = next((o for w in near if (o := parts.get(w) or parts.get(singular(w)))), "")
    if owner:
        return owner  # "the first chapter of X", "X chapter 2", "how many chapters does X have"
    if WHO_OFFERS.match(text) and "," in text[:at]:
        return PERSON  # "Who wrote more books, Tolkien or Lewis?": one of them is who
    return ""


# a question whose answer is one of the names it offers after a comma: "Who is older, X or Y?" (no name
# before the comma: "Who is the author of Dune, Emma or Persuasion?" offers books)
WHO_OFFERS = re.compile(r"^\s*[Ww]ho\b[^,A-Z]*,[^,]*\bor\b")
