"""A request's actions: where one action ends and the next begins ("archive X and post in Y", «создай X,
затем покажи его»), and whether an action orders a write. The words are the language's
(``language.actions``); a coordinator splits only before an action verb and never inside a stated value.
Which write an action ends at is ``write_choice``'s."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from apiatlas.language.actions import (
    ACTION_WORDS,
    ARTICLES,
    ASKING_VERBS,
    ASKING_WITH,
    BEFORE_A_VERB,
    COPY_VERBS,
    WORD,
    as_sent,
    asks_with_object,
    orders_write,
    phrasal_verb,
)
from apiatlas.language.words import (
    CLAUSE_WORDS,
    EVERY_WORDS,
    GOVERNING_WORDS,
    PLAIN_WORDS,
    PREPOSITIONS,
    SENTENCE_WORDS,
    fixed_pair_spans,
)
from apiatlas.planning import values as v
from apiatlas.planning.kind_verbs import quantity_dropped

# what joins two actions: "and", "then", "and then", «и», «затем», «а потом», «потом», a comma, a
# semicolon, the end of a sentence; the words after it until the verb ("also", "please")
_JOINS = re.compile(
    r"(?:\s*[,;]\s*|\s*[.?!]\s+|\s+)(?:(?:and|then|и|затем|потом|а\s+потом|а\s+затем)\s+)+|\s*[;]\s*|"
    r"\s*[.?!]\s+|\s*,\s*",
    re.IGNORECASE,
)
_NEW_THING = frozenset(("a", "an"))  # the article of a thing an action makes or gives
_NO_PLURAL = ("ss", "us", "is")  # a word ending so is no plural for its "s" ("access", "focus")
_LEADING = frozenset(
    ("also", "please", "then", "also,", "additionally", "can", "could", "would", "will",
     "пожалуйста", "также", "ещё", "еще")
)  # fmt: skip
# a sentence that asks without an action verb: a question ("What is the weather …?") or a need said
# of oneself ("I need hotel options …", "I'd like …"; not "I want to arrive …")
_ASKING_SENTENCE = re.compile(
    r"^\s*(?:(?:what|which|who|where|when|how)\b|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?!to\b)\w)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.?!]\s")
# the last of things listed after a verb: "Create a product X, a price for it, and a link for that price"
_LIST_END = re.compile(r",?\s+and\s+(?:a|an|the)\b", re.IGNORECASE)
_AGAIN = "re-"  # a verb done again ("re-send", "re-open"): the verb's own action


@dataclass(frozen=True)
class RequestAction:
    """One action of a request: its words as written, its verb ("" when it opens with none), whether the
    verb orders a write, whether it gives a thing to what a dative pronoun after it stands for (a verb the
    language need not know: that thing is made, ``write_choice.write_targets``)."""

    text: str
    verb: str
    writes: bool
    gives: bool = False  # its verb gives a thing to what a pronoun stands for («задай ему квоту»)


def action_verb(text: str, verbs: Callable[[], frozenset[str]] = frozenset) -> str:
    """The verb an action opens with ("Archive the channel …": archive; "please add …": add), lower
    case; "" when its first word (past "please", "also") is no verb of ``language.actions`` nor one the
    catalog's writes say (``verbs``: ``said_verbs``, read only for a word the language does not know,
    opening an imperative: "Disable the group …", not "Status of …"; said as the write says it, not as
    a participle or adjective of its stem: "Archived channels …", "Final report of …" ask, ``says``)."""
    words = _opening(text)
    if words[:2] in (["check", "in"], ["check", "out"]):  # "check in on August 1": a stay's dates
        return ""
    if words and words[0].startswith(_AGAIN):  # "re-send him the report": send it again
        return action_verb(" ".join([words[0][len(_AGAIN) :], *words[1:]]), verbs)
    if words and words[0] in ACTION_WORDS:
        return words[0]
    words = _opening(quantity_dropped(text))  # "Refund $10 of the order O": the verb, then its object
    return words[0] if _imperative(words) and says(words[0], verbs()) else ""


def _opening(text: str) -> list[str]:
    """The lower-case words of ``text`` past those before a verb ("please", «пожалуйста»)."""
    words = [w.lower() for w in WORD.findall(text)]
    while words and words[0] in _LEADING | BEFORE_A_VERB:
        words = words[1:]
    return words


def says(word: str, forms: Collection[str]) -> bool:
    """Whether ``word`` (lower case) is the verb of one of a catalog's write ``forms`` (``said_verbs``):
    the form itself ("void", "finalize"), or the verb of a form naming its action as a noun ("evict" of
    ``eviction``, "bind" of ``binding``) — not another word of its stem ("final", "archived", "closed")."""
    if word in forms:
        return True
    bare = word[:-1] if word.endswith("e") else word  # "validate" of ``validation``
    return len(bare) > 2 and any(f.startswith(bare) and f[len(bare) :] in _ACTION_NOUN_ENDINGS for f in forms)


_ACTION_NOUN_ENDINGS = frozenset(("ion", "ation", "ing", "ment", "al"))


def _imperative(words: list[str]) -> bool:
    """Words that may open an imperative: a first word that is no plain word, before no preposition or
    linking verb ("Disable the …", "Drain node …"; not "Status of …", "Void is …")."""
    after = words[1] if len(words) > 1 else ""
    return bool(after) and words[0] not in PLAIN_WORDS and after not in _NOT_AFTER_A_VERB


_LINKING = frozenset(("is", "are", "was", "were", "has", "have", "had", "does", "do", "did"))
_NOT_AFTER_A_VERB = GOVERNING_WORDS | PREPOSITIONS | _LINKING


def split_actions(
    request: str, found: list[v.ExtractedValue], verbs: Callable[[], frozenset[str]] = frozenset
) -> list[RequestAction]:
    """The request's actions in the order it says them. A join ("and", "then", a comma, «и», «затем»,
    «а потом», a sentence's end) splits only where an action verb follows it (or a sentence that asks
    without one: ``_asking_sentence``) and the part before it is
    an action of its own: a comma after a phrase with no verb ("In the channel X, send …") joins
    nothing, and a join inside a value the request states ("Tom and Jerry", 'release and notes') is
    none. ``verbs``: the catalog's own write verbs (``said_verbs``), an action's opening too."""
    protected = _value_spans(request, found) + fixed_pair_spans(request)  # "read and write access"
    parts: list[str] = []
    start, carried = 0, ""
    for match in _JOINS.finditer(request):
        if any(a < match.end() and match.start() < b for a, b in protected):
            continue
        before, after = request[start : match.start()].strip(), request[match.end() :]
        if len(WORD.findall(before)) < 2:
            continue
        verb = action_verb(before, verbs) or action_verb(parts[-1] if parts else "", verbs)
        sentence = bool(_SENTENCE_END.search(match.group(0) + " "))  # what follows opens a sentence
        opens = bool(action_verb(after, verbs) or verb_of_it(after) or verb_before_article(after, sentence))
        opens = opens or _asking_sentence(match.group(0), after)
        opens = opens or _second_question(match.group(0), before, after)
        if not opens and not _second_thing(match.group(0), after, verb):
            continue
        if _comma_only(match.group(0)) and not action_verb(before, verbs):
            continue
        parts.append(f"{carried} {before}".strip())
        start, carried = match.end(), "" if opens else verb
    parts.append(f"{carried} {request[start:].strip()}".strip())
    out = []
    for at, part in enumerate(p for p in parts if p):
        verb = action_verb(part, verbs) or action_verb(_past_dash(part), verbs)
        verb = verb or (verb_before_article(part, True) if at else "")  # "… and issue a token": split there
        verb = verb or phrasal_verb(_opening(part))  # «верни деньги …»: refund
        if verb in COPY_VERBS:  # a copy: the thing read, then one like it created
            out.extend(_copied(part, verb))
        elif not verb and (done := verb_of_it(part)):  # "limit it to …": a change, unless a verb of asking
            part, done = as_sent(part, done)  # "email it to …": send it
            gives = _DATIVE.search(part) is not None  # «задай ему квоту»: a quota given to it
            out.append(RequestAction(text=part, verb=done, writes=done not in ASKING_VERBS, gives=gives))
        else:
            writes = orders_write(verb) or (verb not in ACTION_WORDS and bool(verb))  # the catalog's own
            writes = writes and not _asks_with_object(part, verb)  # «выдай список книг»: a read
            out.append(RequestAction(text=part, verb=verb, writes=writes))
    return out


def _asks_with_object(part: str, verb: str) -> bool:
    """Whether ``part``'s verb asks with the object after it (``language.actions.asks_with_object``)."""
    words = [w.lower() for w in WORD.findall(part)]
    return verb in ASKING_WITH and verb in words and asks_with_object(words[words.index(verb) :])


# the pronoun of the thing a verb acts on, and of whom it is done to («задай ему квоту»)
_DATIVES = ("ему", "ей", "им")
_OBJECT_PRONOUNS = frozenset(("it", "them", "его", "её", "ее", "их", *_DATIVES))
_DATIVE = re.compile(rf"^\s*\S+\s+(?:{'|'.join(_DATIVES)})\s+[^\W\d_]", re.IGNORECASE)  # then a noun
_DASH = re.compile(r"\s[—–]\s")  # a dash between words: what is said before it sets the scene


def _past_dash(part: str) -> str:
    """What ``part`` says after its last dash ("the customer left — expire session X": the order after
    the scene); '' without one."""
    pieces = _DASH.split(part)
    return pieces[-1] if len(pieces) > 1 else ""


def verb_of_it(text: str) -> str:
    """The word an action opens with when an object pronoun follows it ("… and limit it to 8 CPUs",
    «… и ограничь его …»): a verb, whether the language knows it or not (lower case); '' otherwise."""
    words = _opening(text)
    if len(words) < 2 or words[1] not in _OBJECT_PRONOUNS or not words[0].isalpha():
        return ""
    return "" if words[0] in PLAIN_WORDS | PREPOSITIONS | CLAUSE_WORDS else words[0]


def verb_before_article(text: str, capital: bool = False) -> str:
    """The word an action opens with when an indefinite article follows it ("… and issue a token for it"):
    in an English sentence a word between a join and a new object's article is its verb, whether the
    language knows it or not, written in lower case ("… and Alice a message": a name, no verb) but where
    a sentence opens (``capital``: "…. Staple a label on it"); '' otherwise
    (no function, question or every-word: "… and a note"; "… and limit the output to 5" names a parameter
    of the same read, not a new thing; "… and refunds a customer has": a plural noun)."""
    said = WORD.findall(text)
    while said and said[0].lower() in _LEADING | BEFORE_A_VERB:
        said = said[1:]
    words = [w.lower() for w in said]
    if len(words) < 2 or words[1] not in _NEW_THING or not said[0].isascii() or not said[0].isalpha():
        return ""
    if not (said[0].islower() or capital):  # "… and Alice a message": a name inside a sentence
        return ""
    if words[0].endswith("s") and not words[0].endswith(_NO_PLURAL):  # "… and refunds a customer has": a
        return ""  # plural noun the read goes on listing, no verb (an imperative is no plural)
    plain = PLAIN_WORDS | PREPOSITIONS | CLAUSE_WORDS | SENTENCE_WORDS | EVERY_WORDS | _LINKING
    return "" if words[0] in plain or words[0] in ARTICLES else words[0]


def _copied(part: str, verb: str) -> list[RequestAction]:
    """A copy's two actions ("Copy the report X from A to B": get the report X …, create the
    report X …): its verb replaced by the read's and the create's (``COPY_VERBS``)."""
    out = []
    for said in COPY_VERBS[verb]:
        text = re.sub(rf"\b{re.escape(verb)}\b", said, part, count=1, flags=re.IGNORECASE)
        out.append(RequestAction(text=text, verb=said, writes=orders_write(said)))
    return out


def _second_thing(join: str, after: str, verb: str) -> bool:
    """A second thing a write is done to: "and" and an article after a verb that orders a change
    ("Delete the claim X and the volume it was bound to": delete both); a read's second thing is one
    action ("Show the members and the notes of X") unless it is found through the first ("… and the
    persistent volume behind it": an object pronoun in its phrase, which points back at the first); a
    comma before "the one …" says again which thing ("Archive the channel A, the one with old posts, and
    the channel B": two things)."""
    said = WORD.findall(after[:12].lower())
    again = said[1:2] in (["one"], ["ones"])
    listed = "and" in join.lower().split() or (
        _comma_only(join) and not again and _LIST_END.search(after) is not None
    )
    if not (listed and bool(said) and said[0] in ARTICLES):
        return False
    phrase = WORD.findall(_JOINS.split(after, maxsplit=1)[0].lower())
    return orders_write(verb) or (bool(verb) and any(w in _OBJECT_PRONOUNS for w in phrase))


def asks(text: str) -> bool:
    """A request that asks a question ("Which files did X upload?", "Who reacted to …"): a write word in
    it says what happened, it orders nothing."""
    return bool(_ASKING_SENTENCE.match(text)) and text.rstrip().endswith("?")


def _asking_sentence(join: str, after: str) -> bool:
    """A new sentence that asks without opening with an action verb ("… Paris? What is the forecast
    …", "… days. I need hotel options …")."""
    return bool(_SENTENCE_END.search(join)) and bool(_ASKING_SENTENCE.match(after))


def _second_question(join: str, before: str, after: str) -> bool:
    """A question joined by "and" to a question before it ("Who are the artists related to X, and what
    albums has X released?"): two things asked."""
    joined = "and" in join.lower().split()
    if not (joined and _ASKING_SENTENCE.match(before) and _QUESTION_OPEN.match(after)):
        return False
    if len(WORD.findall(after)) < 2:
        return False  # "… and when?": nothing asked of its own
    return not (_ASKED_KIND.fullmatch(before) and _KIND_OPEN.match(after))  # "What X and which Y are …"


_QUESTION_OPEN = re.compile(r"^\s*(?:what|which|who|where|when|how)\b", re.IGNORECASE)
_KIND_OPEN = re.compile(r"^\s*(?:what|which|how\s+(?:many|much))\b", re.IGNORECASE)
_ASKED_KIND = re.compile(r"\s*(?:what|which|how\s+(?:many|much))\s+\w+\s*", re.IGNORECASE)


def _comma_only(join: str) -> bool:
    """A join that is a comma alone (no "and", "then", «и», «затем»)."""
    return "," in join and not re.search(r"\b(?:and|then|и|затем|потом)\b", join, re.IGNORECASE)


def _value_spans(request: str, found: list[v.ExtractedValue]) -> list[tuple[int, int]]:
    """Where the stated values stand in the request (every place each one is written)."""
    spans = []
    lowered = request.lower()
    for value in found:
        text = value.text.lower()
        at = lowered.find(text) if text else -1
        while at >= 0:
            spans.append((at, at + len(text)))
            at = lowered.find(text, at + 1)
    return spans
