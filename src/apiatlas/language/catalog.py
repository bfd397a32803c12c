"""A catalog's own words: its kinds of things, the words a request names them with, its numbered parts
and synonyms. Derived from the catalog at build time (``derive_vocabulary``), amended by the build
config, stored in the snapshot (``pass_stats["vocabulary"]``) and read by the planner."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.model import Api
from apiatlas.language.actions import PROCEDURE_VERBS, READ_VERBS, REQUEST_WORDS
from apiatlas.language.words import NUMBERED_WORDS, PEOPLE_WORDS, PERSON, PLAIN_WORDS
from apiatlas.text import query_terms

_PARAM = re.compile(r"\{([^}]*)\}")
_TITLE_WORD = re.compile(r"[\w'’-]+", re.UNICODE)
_VERSION = re.compile(r"^v\d+(?:\.\d+)*$|^\d+(?:\.\d+)*$")
_ITEM_KEYS = frozenset({"name", "key", "slug", "code", "uid", "uuid"})  # ``/nodes/{name}``: one node
_ID_INPUT = re.compile(r"^([a-z]{3,})(?:_id|Id)$")  # ``channel_id``, ``userId``: the id of a channel, a user
_NOT_A_THING = frozenset(
    {*PLAIN_WORDS, *READ_VERBS, *PROCEDURE_VERBS, *(w for forms in REQUEST_WORDS.values() for w in forms)}
)


class CatalogVocabulary(BaseModel):
    """The words a catalog's requests name its things with, beyond the general language.

    ``kinds``: the kinds of things the catalog is about (a REST catalog's resources, singular);
    ``kind_words``: request words naming a kind (its plural, synonyms, roles of a person);
    ``parts``: numbered parts of a thing (a path segment before a ``{..._number}`` input) and the kind
    they belong to; ``expansions``: request words and the catalog words they stand for;
    ``title_aliases``: title stems that stand for a stem of the API's key (``title_aliases``); ``roles``:
    words naming a person's part in a thing (a person found as the thing's); ``person_verbs``: verbs
    saying a person did something to a thing (the name before them is a person's)."""

    model_config = ConfigDict(extra="forbid")

    kinds: list[str] = Field(default_factory=list)
    kind_words: dict[str, str] = Field(default_factory=dict)
    parts: dict[str, str] = Field(default_factory=dict)
    expansions: dict[str, str] = Field(default_factory=dict)
    title_aliases: dict[str, str] = Field(default_factory=dict)
    roles: list[str] = Field(default_factory=list)
    person_verbs: list[str] = Field(default_factory=list)
    required_inputs: list[str] = Field(default_factory=list)
    named_inputs: list[str] = Field(default_factory=list)

    def amended(self, given: CatalogVocabulary) -> CatalogVocabulary:
        """This vocabulary with what the build config says: its kinds replace the derived ones when it
        names any; its words are added (a given word wins)."""
        kinds = list(given.kinds) or list(self.kinds)
        return CatalogVocabulary(
            kinds=kinds,
            kind_words={
                **{w: k for w, k in self.kind_words.items() if k in kinds},
                **given.kind_words,
            },
            parts={**self.parts, **given.parts},
            expansions={**self.expansions, **given.expansions},
            title_aliases={**self.title_aliases, **given.title_aliases},
            roles=sorted({*self.roles, *given.roles}),
            person_verbs=sorted({*self.person_verbs, *given.person_verbs}),
            required_inputs=sorted({*self.required_inputs, *given.required_inputs}),
            named_inputs=sorted({*self.named_inputs, *given.named_inputs}),
        )

    def with_expansions(self, words: Mapping[str, str]) -> CatalogVocabulary:
        """This vocabulary with ``words`` (word -> what it stands for) added to its expansions where it
        expands no such word yet; itself when none is new."""
        new = {w: e for w, e in words.items() if w not in self.expansions}
        if not new:
            return self
        fields = self.model_dump()  # a new model: this one's cached word tables stay its own
        return CatalogVocabulary.model_validate({**fields, "expansions": {**self.expansions, **new}})

    @cached_property
    def kind_set(self) -> frozenset[str]:
        return frozenset(self.kinds)

    @cached_property
    def required_set(self) -> frozenset[str]:
        return frozenset(self.required_inputs)

    @cached_property
    def naming(self) -> dict[str, str]:
        """Every request word naming a kind: the kinds themselves, ``kind_words``, the general words for
        people."""
        out = {k: k for k in self.kinds}
        out.update({w: PERSON for w in PEOPLE_WORDS if PERSON in self.kind_set})
        out.update(self.kind_words)
        return out

    @cached_property
    def part_words(self) -> frozenset[str]:
        """The numbered parts' words, singular and plural, and the general ones ("page")."""
        return frozenset({*self.parts, *(p + "s" for p in self.parts), *NUMBERED_WORDS})

    @cached_property
    def plural_words(self) -> frozenset[str]:
        """Kind words naming many things ("people", a plural of a kind)."""
        return frozenset(
            w for w, k in self.naming.items() if w != k and (w.endswith("s") or w in PEOPLE_WORDS - {PERSON})
        )

    @cached_property
    def expansions_by_stem(self) -> dict[str, str]:
        """The expansions by the stem of the word they are written for (one word may stand for several)."""
        out: dict[str, list[str]] = {}
        for word, names in self.expansions.items():
            terms = query_terms(word)
            if len(terms) == 1:
                known = out.setdefault(terms[0], [])
                known.extend(n for n in names.split() if n not in known)
        return {stem: " ".join(names) for stem, names in out.items()}

    def expansion(self, word: str) -> str:
        """What a request word names in other words: its own entry, else the entries of the words of its
        stem ("pictures", "photos" as "picture", "photo")."""
        if word in self.expansions:
            return self.expansions[word]
        by_stem = self.expansions_by_stem
        return " ".join(by_stem[t] for t in query_terms(word) if t in by_stem)

    def known_words(self) -> set[str]:
        """The words this vocabulary knows (not misspellings of catalog words)."""
        return {
            *self.naming, *self.part_words, *self.expansions, *self.roles, *self.person_verbs,
            *(w for e in self.expansions.values() for w in e.split()),
        }  # fmt: skip


def singular(word: str, *, short: bool = True) -> str:
    """An English plural's singular in lower case, by the common endings (``companies`` → ``company``,
    ``boxes`` → ``box``, ``addresses`` → ``address``, ``people`` → ``person``): the one plural rule of
    apiatlas. ``short=False``: a word of three letters or fewer keeps its ``s`` (field and parameter
    names, where ``ts``, ``ids`` or ``dns`` is an abbreviation; ``passes.rest_names.name_singular``)."""
    w = word.casefold()
    if not short and w in ("people", "persons"):  # the REST passes' rule only (kinds keep "people")
        return "person"
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "ches", "shes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and (short or len(w) > 3):
        return w[:-1]
    return w


def english_plural(word: str) -> str:
    """The English plural of a noun as its spelling makes it (class → classes, policy → policies): the
    other way of ``singular``."""
    if word.lower().endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word[-1] in "yY" and word[-2].lower() not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _segments(api: Api) -> list[str]:
    """The path segments of an HTTP operation's key (``GET /v1/things/{id}``), version prefixes left out."""
    path = api.key.partition(" ")[2]
    if not path.startswith("/"):
        return []
    parts = [p for p in path.split("?")[0].strip("/").split("/") if p]
    return [p for p in parts if not _VERSION.match(p)]


def _resource_word(segment: str) -> str:
    """A literal segment's last word, lower case (``line_items`` → ``items``)."""
    return re.split(r"[_\-.]", segment.lower())[-1]


def title_stems(title: str) -> list[str]:
    """The distinct stems of a title's content words, in order (plain words left out)."""
    content = [w for w in _TITLE_WORD.findall(title.lower()) if w not in PLAIN_WORDS]
    return list(dict.fromkeys(query_terms(" ".join(content))))


def title_aliases(titles: dict[str, list[str]], least: int = 2) -> dict[str, str]:
    """Title words that stand for a word of the API's key: in "Search Web Pages" (``GET /search/web``) the
    key's "web" is followed by "pages", and every title with "pages" has "web" before it: a request's
    "page" means web. ``titles``: key → title stems in order; pairs seen in ``least`` titles or more."""
    after: dict[tuple[str, str], int] = {}
    seen: dict[str, int] = {}
    for key, stems in titles.items():
        own: set[str] | None = None
        for index, stem in enumerate(stems):
            seen[stem] = seen.get(stem, 0) + 1
            if not index or stems[index - 1] not in key.lower():  # a cheap test before stemming the key
                continue
            if own is None:
                path = key.partition(" ")[2] if " " in key else key  # without the HTTP method
                own = set(query_terms(re.sub(r"\{[^}]*\}", " ", path).replace("_", " ").replace("/", " ")))
            if stems[index - 1] in own and stem not in own:
                pair = (stem, stems[index - 1])
                after[pair] = after.get(pair, 0) + 1
    return {word: key_word for (word, key_word), n in after.items() if n >= least and n == seen[word]}


def _id_inputs(api: Api) -> set[str]:
    """The kinds of things an HTTP operation's inputs take the ids of: by the input's name (``channel_id``
    → channel), or an input named a bare noun whose own description says it takes that thing's id
    (``file``: "ID of file to delete", "Specify a file by providing its ID")."""
    found = (_ID_INPUT.match(p.name) for p in api.params)
    named = {t for m in found if m and (t := m.group(1).lower()) not in _NOT_A_THING}
    return named | {w for p in api.params if (w := described_id(p.name, p.description or ""))}


def described_id(name: str, description: str) -> str:
    """``name`` singular when the input is named a bare noun its description says the id of ("ID of the
    file", "the file ID", "a file by providing its ID"), else ""."""
    word = name.lower()
    if not (name.isalpha() and name.islower() and len(word) >= 3) or word in _NOT_A_THING | _ITEM_KEYS:
        return ""
    said = rf"\b(?:{word}|{singular(word)})\b"
    ids = r"(?:IDs?|identifiers?)"
    pattern = (
        rf"\b{ids} of (?:the |an? )?(?:\w+ )?{said}|{said}(?:'s)? {ids}\b|{said}[^.,;]{{0,30}}\bits {ids}\b"
    )
    return singular(word) if re.search(pattern, description, re.IGNORECASE) else ""


def derive_vocabulary(apis: Iterable[Api]) -> CatalogVocabulary:
    """The kinds of things of a REST catalog: each literal path segment that an identifier input follows
    (``/things/{thing_id}``), singular, with its plural as a kind word; a segment followed by a numbered
    input (``/{owner_id}/part/{part_number}``) is a numbered part of the kind before it. A catalog of
    procedures (no paths) derives none: its business objects name its things. Also the title words that
    stand for a key's word (``title_aliases``), for a catalog of either kind."""
    kinds: dict[str, int] = {}
    parts: dict[str, str] = {}
    titles: dict[str, list[str]] = {}
    required: set[str] = set()
    by_noun: set[str] = set()  # kinds an input is named for
    for api in apis:
        titles[api.key] = title_stems(api.title)
        segments = _segments(api)
        required.update(p.name.lower() for p in api.params if p.required and segments)
        by_noun.update(singular(p.name.lower()) for p in api.params if segments and p.name.isalpha())
        owner = ""
        for index, segment in enumerate(segments[:-1]):
            following = _PARAM.fullmatch(segments[index + 1])
            if segment.startswith("{") or following is None:
                continue
            word = _resource_word(segment)
            if not word.isalpha() or len(word) < 2 or word in _NOT_A_THING:
                continue
            thing = singular(word)
            name = following.group(1).lower()
            numbered = name.endswith("number")
            if not (numbered or name.endswith("id") or name.startswith(thing) or name in _ITEM_KEYS):
                continue  # ``/ranked/{time_window}``: a choice, not one of a kind of things
            if name in _ITEM_KEYS:
                by_noun.add(thing)
            if numbered and owner:
                parts[thing] = owner
            else:
                kinds[thing] = kinds.get(thing, 0) + 1
                owner = owner or thing
        for thing in _id_inputs(api) if segments else ():
            kinds[thing] = kinds.get(thing, 0) + 1
    named = sorted(k for k in kinds if k not in parts)
    kind_words = {english_plural(k): k for k in named if english_plural(k) != k}
    return CatalogVocabulary(
        kinds=named, kind_words=kind_words, parts=parts, title_aliases=title_aliases(titles),
        required_inputs=sorted(required), named_inputs=sorted(by_noun & set(named)),
    )  # fmt: skip
