"""Values a request states: names (Russian, English), dates, periods, account numbers, INN, ISIN, numbers,
opaque ids (cus_123, C024BE91L, UUIDs)."""

from __future__ import annotations

import calendar
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from functools import lru_cache

from apiatlas.language.actions import ACTION_WORDS
from apiatlas.language.casing import casing_says_nothing
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.language.currencies import currency_code
from apiatlas.language.routes import route_parts
from apiatlas.language.russian_names import (
    PATRONYMIC_END,
    SURNAME_END,
    nominative_given_name,
    nominative_patronymic,
    nominative_surname,
)
from apiatlas.language.words import ID_LINKS, MONTHS_RU, NAME_LINKS, ORDINALS, SENTENCE_WORDS
from apiatlas.planning.compound_kinds import qualifier
from apiatlas.planning.english_dates import english_dates
from apiatlas.planning.entity_hints import entity_hint
from apiatlas.planning.id_prefixes import prefix_kind
from apiatlas.planning.said_body import BODY as BODY  # the text of a thing written, said after a mark
from apiatlas.planning.said_body import marked

# kinds of extracted values
SURNAME, FIRST_NAME, PATRONYMIC = "surname", "first_name", "patronymic"
ENTITY = "entity"  # a named thing in English or a quoted string: a title, a company, a person
DATE, DATE_FROM, DATE_TO = "date", "date_from", "date_to"
DATE_KINDS = frozenset((DATE, DATE_FROM, DATE_TO))
AMOUNT = "amount"  # a number of a unit written as a code: "5 ETH", "2 BTC in GBP" (fills nothing yet)
ELSEWHERE = "elsewhere"  # hint of a value another action of the request states (fills required inputs only)
ACCOUNT_NUMBER, INN, ISIN, NUMBER = "account_number", "inn", "isin", "number"
DOC_NUMBER = "doc_number"  # a document, deal or branch number: DS-20251124-00011, № 125, 0012
CODE_HINT = "code:"  # hint of a number whose letter prefix names its kind: "code:DS" for DS-20251124-00011
IDENTIFIER = "identifier"  # an opaque id an API issued: cus_9s6XKzkNRiz8i3, C024BE91L, a UUID
EMAIL = "email"  # an e-mail address: anna@example.com
URL = "url"  # a web address: https://example.com/hooks
NAME = "name"  # a name said right after a kind of thing of the catalog: "the channel releases" (``lookups``)


@dataclass(frozen=True)
class ExtractedValue:
    """One value found in the request text, with what it probably is."""

    kind: str
    value: str | int
    text: str  # as written in the request
    hint: str = ""  # a neighbouring word naming what the value is (e.g. "page" for "second page")
    alternatives: tuple[str, ...] = field(default_factory=tuple)  # other readings (e.g. another case)
    qualifier: str = ""  # an id's word before its kind noun ("payment box pb_1": ``compound_kinds``)


# a quote closed by its own pair, so an apostrophe inside double quotes or guillemets ("PR'ы готовы") is text
_QUOTED = re.compile(r"\"([^\"]{2,80})\"|«([^»]{2,80})»|“([^”]{2,80})”|„([^“”]{2,80})[“”]|'([^']{2,80})'")
# a web address: no quote, code mark or bracket in it but a balanced pair ("…/Foo_(bar)"), no stop at its end
_URL = re.compile(r"\bhttps?://(?:[^\s\"'`<>«»“”‘’()]|\([^\s()]*\))+(?<![.,;:!?])")
_SAID_BEFORE = re.compile(r"[^\W\d_]+")  # the words said before a web address: what it is ("success url")
_ISIN = re.compile(r"\b([A-Z]{2}[A-Z0-9]{9}\d)\b")
_ACCOUNT = re.compile(r"(?<!\d)(\d{20})(?!\d)")
_INN = re.compile(r"(?<!\d)(\d{10}|\d{12})(?!\d)")
# opaque ids: prefixed (cus_123, ch_3MmlLr…), UUIDs, or 8+ letters and digits mixed (C024BE91L)
_EMAIL = re.compile(r"(?<![\w.+-])([\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")
_UUID = re.compile(r"(?<![\w-])([0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})(?![\w-])")
_IDENTIFIER = re.compile(
    r"(?<![\w-])("
    r"[A-Za-z][A-Za-z0-9]{0,11}_[A-Za-z0-9_]*\d[A-Za-z0-9_]*"
    r"|(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}"
    r")(?![\w-])"
)
# the number: with thousands separators ("12,345,678", "1,500.25"), else with one decimal point or comma
AMOUNT_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?"
_AMOUNT = re.compile(rf"(?<![\w.,])({AMOUNT_NUMBER})\s+([A-Z]{{3}})(?:\s+(?:in|to|into)\s+[A-Z]{{3}})?\b")
# a currency's sign beside a number says its code ("$20": 20 USD), as the world writes them
_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₽": "RUB", "₹": "INR"}
_SIGNED = re.compile(
    rf"(?<![\w.,])([$€£¥₽₹])\s?({AMOUNT_NUMBER})(?!\w)|(?<![\w.,])({AMOUNT_NUMBER})\s?([€£¥₽₹])"
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_RU_DATE = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
_DOC_NUMBER = re.compile(
    r"(?:№\s*(\d[\w/-]*))|\b([A-ZА-Я]{1,4}-[\w-]*\d[\w-]*)|(?<![\w.])(0\d{2,5})(?![\w.])"
)
_MONTH_WORD = re.compile(
    r"\b(\d{1,2})?\s*(январ[ья]|феврал[ья]|марта?|апрел[ья]|ма[йя]|июн[ья]|июл[ья]|августа?|"
    r"сентябр[ья]|октябр[ья]|ноябр[ья]|декабр[ья])\s+(\d{4})",
    re.IGNORECASE,
)
_QUARTER = re.compile(r"\b([1-4])\s*(?:-?й\s*)?квартал[а-я]*\s+(\d{4})", re.IGNORECASE)
_YEAR = re.compile(r"\bза\s+(\d{4})\s*(?:год|г\.?)", re.IGNORECASE)
_ORDINAL = re.compile(r"\b(" + "|".join(ORDINALS) + r")\s+(\w+)", re.IGNORECASE)


@lru_cache(maxsize=16)
def _noun_number(parts: tuple[str, ...]) -> re.Pattern[str]:
    """A numbered part and its number ("page 2", a catalog's "chapter 3")."""
    return re.compile(r"\b(" + "|".join(re.escape(p) for p in parts) + r")\s+(\d{1,4})\b", re.IGNORECASE)


_EN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’:\-]*")
_RU_WORD = re.compile(r"[А-ЯЁа-яё][а-яё\-]*")


def _url(address: str, before: str) -> ExtractedValue:
    """A web address, with the words said just before it as its qualifier ("with success url", "returning
    to"): which of an API's address inputs it is (``binding.accepts``)."""
    said = " ".join(w.lower() for w in _SAID_BEFORE.findall(before)[-3:])
    return ExtractedValue(URL, address, address, qualifier=said)


def extract_values(text: str, vocabulary: CatalogVocabulary | None = None) -> list[ExtractedValue]:
    """Every value the request states, in the order found (names, dates, periods, identifiers, numbers);
    ``vocabulary``: the catalog's words, which say what a name is ("the book X")."""
    vocabulary = vocabulary if vocabulary is not None else CatalogVocabulary()
    found: list[ExtractedValue] = []
    rest = text
    for match in _QUOTED.finditer(text):
        inner = next(part for part in match.groups() if part is not None).strip()
        if _URL.fullmatch(inner):  # a quoted web address: "https://…"
            found.append(_url(inner, text[: match.start()]))
            rest = rest.replace(match.group(0), " ")
            continue
        if marked(text[: match.start()]):  # saying "…": the text of a thing written
            found.append(ExtractedValue(BODY, inner, match.group(0)))
        else:
            hint = entity_hint(text, match.group(0), vocabulary)
            found.append(ExtractedValue(ENTITY, inner, match.group(0), hint=hint))
        rest = rest.replace(match.group(0), " ")
    for match in _URL.finditer(rest):  # before the e-mails and names inside it
        found.append(_url(match.group(0), rest[: match.start()]))
    rest = _URL.sub(" ", rest)
    for match in _EMAIL.finditer(rest):
        found.append(ExtractedValue(EMAIL, match.group(1), match.group(1)))
    rest = _EMAIL.sub(" ", rest)
    found.extend(_identifiers(_UUID, rest))  # before the numbers: a UUID ends in twelve digits
    rest = _UUID.sub(" ", rest)
    for match in _ISIN.finditer(rest):
        found.append(ExtractedValue(ISIN, match.group(1), match.group(1)))
    rest = _ISIN.sub(" ", rest)
    for match in _ACCOUNT.finditer(rest):
        found.append(ExtractedValue(ACCOUNT_NUMBER, match.group(1), match.group(1)))
    rest = _ACCOUNT.sub(" ", rest)
    for match in _INN.finditer(rest):
        found.append(ExtractedValue(INN, match.group(1), match.group(1)))
    rest = _INN.sub(" ", rest)
    found.extend(_dates(rest))
    capitals = casing_says_nothing(text)  # read as if in lower case: its capitals mark nothing
    rest = _AMOUNT.sub(lambda m: _amount(m, capitals, found), rest)
    for m in _SIGNED.finditer(rest):  # "$20": 20 USD
        sign, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        found.append(ExtractedValue(AMOUNT, f"{number} {_SIGNS[sign]}", m.group(0)))
    rest = _SIGNED.sub(" ", rest)
    for date in english_dates(rest):  # "August 15, 2024": its words and digits are no name or number
        found.append(ExtractedValue(DATE, date.value, date.text))
        rest = rest.replace(date.text, " ")
    for match in _DOC_NUMBER.finditer(rest):
        number = next(g for g in match.groups() if g)
        prefix = re.match(r"[A-ZА-Я]+(?=-)", number) if match.group(2) else None
        hint = CODE_HINT + prefix.group(0) if prefix else ""  # DS-…: the letters name the kind
        found.append(ExtractedValue(DOC_NUMBER, number, match.group(0), hint=hint))
    rest = _DOC_NUMBER.sub(" ", rest)
    rest = _MONTH_WORD.sub(" ", _QUARTER.sub(" ", _RU_DATE.sub(" ", _ISO_DATE.sub(" ", rest))))
    found.extend(_identifiers(_IDENTIFIER, rest, vocabulary.kind_set))
    rest = _IDENTIFIER.sub(" ", rest)
    found.extend([] if capitals else _names(text, rest, vocabulary))
    found.extend(_numbers(rest, vocabulary))
    return found


def _names(text: str, rest: str, vocabulary: CatalogVocabulary) -> list[ExtractedValue]:
    """The names ``rest`` (the request ``text`` past its other values) marks by capitals: Russian full
    names, English entities (a route said as one name, "from Los Angeles to Paris", is its two places);
    the caller asks none when the request's casing says nothing (``language.casing``: read as if in lower
    case, its capitals mark no name)."""
    named = [
        replace(e, value=p, text=p) if p != e.text else e
        for e in _english_entities(rest, vocabulary)
        for p in route_parts(text, e.text)
    ]
    return [*_russian_names(rest), *(_with_kind_noun(text, e, vocabulary) for e in named)]


def _identifiers(pattern: re.Pattern[str], text: str, kinds: Collection[str] = ()) -> list[ExtractedValue]:
    """The ids ``pattern`` finds, each with the kind its own prefix names (``id_prefixes``: none past a kind
    said right before it), else the noun said before it (the words of the ids before it are none: «lk_1OaB
    к ящику bo_…» says no "OaB")."""
    out = []
    for m in pattern.finditer(text):
        before = pattern.sub(" ", text[: m.start()])
        hint = prefix_kind(m.group(1), kinds, before) or _id_noun(before)
        said = qualifier(text, m.start(), hint)
        out.append(ExtractedValue(IDENTIFIER, m.group(1), m.group(1), hint, qualifier=said))
    return out


def _id_noun(before: str) -> str:
    """The noun an id follows ("customer" in "the customer cus_123", "user" in "user with id U123")."""
    words: list[str] = re.findall(r"[A-Za-z]+", before)
    return next((w.lower() for w in reversed(words[-4:]) if w.lower() not in ID_LINKS), "")


def _amount(match: re.Match[str], capitals: bool, found: list[ExtractedValue]) -> str:
    """An amount's match of ``_AMOUNT`` added to ``found`` and blanked out of the text read (" "), or left
    as it is in a request written in ``capitals`` when its three capitals are no currency's code ("SHOW 10
    NEW ORDERS": no unit; "PAY 10 USD": one, ``language.currencies``)."""
    if capitals and not currency_code(match.group(2)):
        return match.group(0)
    found.append(ExtractedValue(AMOUNT, match.group(0), match.group(0)))
    return " "


def _dates(text: str) -> list[ExtractedValue]:
    out: list[ExtractedValue] = []
    for match in _ISO_DATE.finditer(text):
        out.append(ExtractedValue(DATE, match.group(0), match.group(0)))
    for match in _RU_DATE.finditer(text):
        day, month, year = match.groups()
        out.append(ExtractedValue(DATE, f"{year}-{int(month):02d}-{int(day):02d}", match.group(0)))
    for match in _QUARTER.finditer(text):
        quarter, year = int(match.group(1)), int(match.group(2))
        first, last = 3 * quarter - 2, 3 * quarter
        out.append(ExtractedValue(DATE_FROM, f"{year}-{first:02d}-01", match.group(0)))
        end = calendar.monthrange(year, last)[1]
        out.append(ExtractedValue(DATE_TO, f"{year}-{last:02d}-{end:02d}", match.group(0)))
    for match in _MONTH_WORD.finditer(text):
        day, word, year_text = match.groups()
        month = next(n for stem, n in MONTHS_RU.items() if word.lower().startswith(stem))
        year = int(year_text)
        if day:
            out.append(ExtractedValue(DATE, f"{year}-{month:02d}-{int(day):02d}", match.group(0)))
        else:
            end = calendar.monthrange(year, month)[1]
            out.append(ExtractedValue(DATE_FROM, f"{year}-{month:02d}-01", match.group(0)))
            out.append(ExtractedValue(DATE_TO, f"{year}-{month:02d}-{end:02d}", match.group(0)))
    return out


def _russian_names(text: str) -> list[ExtractedValue]:
    words = [(m.group(0), m.start()) for m in _RU_WORD.finditer(text)]
    out: list[ExtractedValue] = []
    index = 0
    while index < len(words):
        word, start = words[index]
        initial = start == 0 or text[:start].rstrip().endswith((".", "!", "?"))
        plain = len(word) >= 3 and word[0].isupper() and word[1:].islower()
        if not plain or (initial and not SURNAME_END.search(word.lower())):
            index += 1
            continue
        group = [word]
        while index + len(group) < len(words) and len(group) < 3:
            nxt = words[index + len(group)][0]
            if not (nxt[0].isupper() and nxt[1:].islower()):
                break
            group.append(nxt)
        patronymic = next((w for w in group[1:] if PATRONYMIC_END.search(w.lower())), None)
        given = next((w for w in group[1:] if w is not patronymic), None)
        if patronymic:
            feminine = bool(re.search(r"(вна|вны|вной|вне|ична|ичны)$", patronymic.lower()))
        else:
            feminine = bool(given and given.lower().endswith(("ы", "и"))) or word.lower().endswith("ой")
        surname, other = nominative_surname(word, feminine if (given or patronymic or feminine) else None)
        out.append(ExtractedValue(SURNAME, surname, word, alternatives=other))
        if given:
            out.append(ExtractedValue(FIRST_NAME, nominative_given_name(given, feminine), given))
        if patronymic:
            out.append(ExtractedValue(PATRONYMIC, nominative_patronymic(patronymic), patronymic))
        index += len(group)
    return out


_ID_ACRONYMS = frozenset(("id", "ids"))  # the identifier's acronym, not every link word ("AT" is a country)


def _english_entities(text: str, vocabulary: CatalogVocabulary) -> list[ExtractedValue]:
    tokens = [(m.group(0), m.start()) for m in _EN_WORD.finditer(text)]
    out: list[ExtractedValue] = []
    group: list[str] = []
    parts = vocabulary.part_words

    def common(word: str) -> bool:
        """A sentence word, or a kind word written as an acronym ("UK" of "uk"), or the acronym of an
        identifier, plural too ("ID", "IDs": "the tax IDs of …"): none names a thing."""
        acronym = word.isupper() or (word.endswith("s") and word[:-1].isupper())
        low = word.lower()
        return low in SENTENCE_WORDS or (acronym and (low in vocabulary.naming or low in _ID_ACRONYMS))

    def close() -> None:
        # "the book Emma and of the band …", "Dune Chapter 1": links, common words and a numbered part at
        # the end are not part of the name
        while group and (group[-1].lower() in NAME_LINKS | parts or common(group[-1])):
            group.pop()
        while group and common(group[0]):
            group.pop(0)
        if group and not all(common(w) or w.lower() in NAME_LINKS for w in group):
            name = " ".join(group).strip(" :'’")
            name = re.sub(r"['’]s$", "", name)
            out.append(ExtractedValue(ENTITY, name, name, hint=entity_hint(text, name, vocabulary)))
        group.clear()

    for position, (token, start) in enumerate(tokens):
        initial = start == 0 or text[:start].rstrip().endswith((".", "!", "?", ","))
        capital = token[0].isupper() or (
            token[0].isdigit()
            and position + 1 < len(tokens)
            and tokens[position + 1][0][0].isupper()
            and not group
        )
        opening = tokens[position + 1 : position + 3]
        if capital and initial and _opening_verb(token, opening, vocabulary.naming):
            close()  # "Archive the channel …", "Post 'notes' in …": the verb a sentence opens with
            continue
        if capital and not (initial and common(token)):
            if common(token) and not group:
                continue
            group.append(token.rstrip(",.?!"))
            if token.endswith((",", "?", "!")):
                close()
        elif group and token.lower() in NAME_LINKS:
            group.append(token)
        else:
            close()
    close()
    return out


_ACRONYM_WORD = re.compile(r"[A-Z]{2,6}(?:-\d{1,4})?\b")  # "SMS", "COVID-19": no first name


def _opening_verb(token: str, following: list[tuple[str, int]], kinds: Collection[str] = ()) -> bool:
    """A sentence's first word that is an action verb (``language.actions.ACTION_WORDS``) and not the
    first word of a name (the next word is not capitalised, or is an acronym: "Mark Hamill" is a name,
    "Obtain COVID-19 statistics" is not), or any word a lower-case determiner follows ("Decode the …"), or
    any word before a kind of the catalog (``kinds``, lower case) and an id-like name ("Cordon node w-5")."""
    after = following[0][0] if following else ""
    named = following[1][0] if len(following) > 1 else ""
    if after in kinds and _ID_LIKE.search(named):  # "Cordon node worker-5": the verb, its kind, a name
        return True
    next_capital = after[:1].isupper() and not _ACRONYM_WORD.match(after)
    if after in _DETERMINERS:  # "Decode the secret …": an imperative before its object, whatever the verb
        noun = following[1][0] if len(following) > 1 else ""  # not "Catherine the Great", "Dune the novel:"
        return not (noun[:1].isupper() or noun.endswith((":", ",", "'s", "’s")))
    return token.rstrip(",.?!").lower() in ACTION_WORDS and not next_capital


_ID_LIKE = re.compile(r"[a-z][\w.]*[-_\d]")  # "worker-5", "db_0", "n1": a name; not a bare number (a year)
_DETERMINERS = frozenset(("the", "a", "an", "my", "our", "all", "every", "each", "this", "these", "those"))


def _numbers(text: str, vocabulary: CatalogVocabulary) -> list[ExtractedValue]:
    out: list[ExtractedValue] = []
    for match in _ORDINAL.finditer(text):
        # the text is the ordinal alone: the noun ("season") stays a request word
        out.append(
            ExtractedValue(
                NUMBER, ORDINALS[match.group(1).lower()], match.group(1), hint=match.group(2).lower()
            )
        )
    for match in _noun_number(tuple(sorted(vocabulary.part_words))).finditer(text):
        out.append(ExtractedValue(NUMBER, int(match.group(2)), match.group(2), hint=match.group(1).lower()))
    return out


@lru_cache(maxsize=16)
def _kind_phrase(words: tuple[str, ...]) -> str:
    """A pattern of one or two of the catalog's kind words ("book", "paper book")."""
    one = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return rf"(?:(?:{one})(?:\s+(?:{one}))?)"


def _with_kind_noun(text: str, value: ExtractedValue, vocabulary: CatalogVocabulary) -> ExtractedValue:
    """ "the book Dune": the text includes "book", which says what the value is, not what is asked."""
    words = tuple(sorted(w for w in vocabulary.naming if w.isalpha()))
    if not words:
        return value
    phrase = _kind_phrase(words)
    name = re.escape(str(value.value))
    before = re.search(rf"\b{phrase}\s+(?:the\s+|called\s+|named\s+)?{name}", text, re.IGNORECASE)
    after = re.search(rf"{name}\s+{phrase}\b", text, re.IGNORECASE)
    match = before or after
    if match is None:
        return value
    return ExtractedValue(value.kind, value.value, match.group(0), value.hint, value.alternatives)
