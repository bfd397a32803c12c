"""A request's actions: where one action ends and the next begins ("archive X and post in Y", «создай X,
затем покажи его»), and whether an action orders a write. The words are the language's
(``language.actions``); a coordinator splits only before an action verb and never inside a stated value."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.language.actions import (
    ACTION_WORDS,
    ASKING_VERBS,
    ASKING_WITH,
    BEFORE_A_VERB,
    CHANGE_VERBS_EN,
    COPY_VERBS,
    DONE_AS,
    REQUEST_WORDS,
    SAID_AS,
    as_sent,
    asks_with_object,
    orders_write,
    phrasal_verb,
)
from apiatlas.language.catalog import singular
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
from apiatlas.planning.binding import Slot
from apiatlas.planning.twin_routes import own_routes
from apiatlas.planning.write_fields import fields_written, with_fields
from apiatlas.text import stem, stems

# what joins two actions: "and", "then", "and then", «и», «затем», «а потом», «потом», a comma, a
# semicolon, the end of a sentence; the words after it until the verb ("also", "please")
_JOINS = re.compile(
    r"(?:\s*[,;]\s*|\s*[.?!]\s+|\s+)(?:(?:and|then|и|затем|потом|а\s+потом|а\s+затем)\s+)+|\s*[;]\s*|"
    r"\s*[.?!]\s+|\s*,\s*",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)
_ARTICLES = frozenset(("a", "an", "the"))
_NEW_THING = frozenset(("a", "an"))  # the article of a thing an action makes or gives
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


@dataclass(frozen=True)
class RequestAction:
    """One action of a request: its words as written, its verb ("" when it opens with none), whether the
    verb orders a write."""

    text: str
    verb: str
    writes: bool


def action_verb(text: str, verbs: Callable[[], frozenset[str]] = frozenset) -> str:
    """The verb an action opens with ("Archive the channel …": archive; "please add …": add), lower
    case; "" when its first word (past "please", "also") is no verb of ``language.actions`` nor one the
    catalog's writes say (``verbs``: ``said_verbs``, read only for a word the language does not know,
    opening an imperative: "Disable the group …", not "Status of …"; said as the write says it, not as
    a participle or adjective of its stem: "Archived channels …", "Final report of …" ask, ``says``)."""
    words = _opening(text)
    if words[:2] in (["check", "in"], ["check", "out"]):  # "check in on August 1": a stay's dates
        return ""
    if words and words[0] in ACTION_WORDS:
        return words[0]
    return words[0] if _imperative(words) and says(words[0], verbs()) else ""


def _opening(text: str) -> list[str]:
    """The lower-case words of ``text`` past those before a verb ("please", «пожалуйста»)."""
    words = [w.lower() for w in _WORD.findall(text)]
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
        if len(_WORD.findall(before)) < 2:
            continue
        verb = action_verb(before, verbs) or action_verb(parts[-1] if parts else "", verbs)
        opens = bool(action_verb(after, verbs) or verb_of_it(after) or verb_before_article(after))
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
        verb = verb or (verb_before_article(part) if at else "")  # "… and issue a token": a verb
        verb = verb or phrasal_verb(_opening(part))  # «верни деньги …»: refund
        if verb in COPY_VERBS:  # a copy: the thing read, then one like it created
            out.extend(_copied(part, verb))
        elif not verb and (done := verb_of_it(part)):  # "limit it to …": a change, unless a verb of asking
            part, done = as_sent(part, done)  # "email it to …": send it
            out.append(RequestAction(text=part, verb=done, writes=done not in ASKING_VERBS))
        else:
            writes = orders_write(verb) or (verb not in ACTION_WORDS and bool(verb))  # the catalog's own
            writes = writes and not _asks_with_object(part, verb)  # «выдай список книг»: a read
            out.append(RequestAction(text=part, verb=verb, writes=writes))
    return out


def _asks_with_object(part: str, verb: str) -> bool:
    """Whether ``part``'s verb asks with the object after it (``language.actions.asks_with_object``)."""
    words = [w.lower() for w in _WORD.findall(part)]
    return verb in ASKING_WITH and verb in words and asks_with_object(words[words.index(verb) :])


_OBJECT_PRONOUNS = frozenset(("it", "them", "его", "её", "ее", "их"))
_DASH = re.compile(r"\s[—–]\s")  # a dash between words: what is said before it sets the scene


def _past_dash(part: str) -> str:
    """What ``part`` says after its last dash ("the customer left — expire session X": the order after
    the scene); '' without one."""
    pieces = _DASH.split(part)
    return pieces[-1] if len(pieces) > 1 else ""


def verb_of_it(text: str) -> str:
    """The word an action opens with when an object pronoun follows it ("… and limit it to 8 CPUs",
    «… и ограничь его …»): a verb, whether the language knows it or not (lower case); '' otherwise."""
    words = [w.lower() for w in _WORD.findall(text)]
    while words and words[0] in _LEADING | BEFORE_A_VERB:
        words = words[1:]
    if len(words) < 2 or words[1] not in _OBJECT_PRONOUNS or not words[0].isalpha():
        return ""
    return "" if words[0] in PLAIN_WORDS | PREPOSITIONS | CLAUSE_WORDS else words[0]


def verb_before_article(text: str) -> str:
    """The word an action opens with when an indefinite article follows it ("… and issue a token for it"):
    in an English sentence a word between a join and a new object's article is its verb, whether the
    language knows it or not (lower case); '' otherwise (no function, question or every-word: "… and a
    note"; "… and limit the output to 5" names a parameter of the same read, not a new thing)."""
    words = [w.lower() for w in _WORD.findall(text)]
    while words and words[0] in _LEADING | BEFORE_A_VERB:
        words = words[1:]
    if len(words) < 2 or words[1] not in _NEW_THING or not words[0].isascii() or not words[0].isalpha():
        return ""
    plain = PLAIN_WORDS | PREPOSITIONS | CLAUSE_WORDS | SENTENCE_WORDS | EVERY_WORDS | _LINKING
    return "" if words[0] in plain or words[0] in _ARTICLES else words[0]


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
    action ("Show the members and the notes of X")."""
    said = _WORD.findall(after[:12].lower())
    return orders_write(verb) and "and" in join.lower().split() and bool(said) and said[0] in _ARTICLES


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
    if len(_WORD.findall(after)) < 2:
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


def reads(api: Api | None) -> bool:
    """An API that only reads."""
    return api is None or api.side_effect is SideEffect.READ


def write_targets(
    hits: list[str],
    api: Callable[[str], Api | None],
    verb: str,
    words: Sequence[str] = (),
    of_kinds: Collection[str] = (),
    members: Collection[str] = (),
    stated: Collection[str] = (),
) -> list[str]:
    """The targets of an action ordering a write (``verb``): of the candidate ``hits``, the writes whose
    path or title says the verb ("pin": ``POST /pins.add``, "Pins an item"), else every write, else the
    hits as they were (the caller may not write: the plan stays a read). An HTTP ``DELETE`` only when
    the request says deleting (``words``: "restart them by deleting them"), not for "label the node".
    ``of_kinds``: the writes to a kind the request names (they win over the verb's other writes);
    ``members``: the writes to the things inside the kind where a thing goes ("add X to the team T").
    ``stated``: the kinds of the things the request names (the hints of its stated values) but those it
    says are new (``said_new``): a verb that creates nothing ("restart the server web") does not end at
    the create of a kind it names one of (``POST /servers`` beside ``PATCH /servers/{name}``). A verb of
    another script than the catalog's («удали») also says its action's words in the catalog's (delete,
    remove). A verb no write says is done as the action ``DONE_AS`` names when one says that (cancel:
    the write saying delete)."""
    writes = [k for k in hits if not reads(api(k))]
    said = _verb_stems(verb)
    deleting = {stem(w) for w in REQUEST_WORDS["delete"]}
    if not deleting & {stem(w) for w in (verb, *words)}:  # a DELETE that says the verb stays ("cancel")
        writes = [k for k in writes if not k.startswith("DELETE ") or said & _title_stems(api(k))] or writes
    if verb not in REQUEST_WORDS["create"]:  # a change of a thing named: no new one created
        writes = [k for k in writes if not _creates_named(k, writes, stated)] or writes
    named = [k for k in writes if said & _own_stems(api(k))]
    if not named and (done := _done_as(verb)):  # "Cancel the message scheduled …": its delete
        named = [k for k in writes if done & _own_stems(api(k))]
    kinded = [k for k in writes if k in of_kinds]  # writes to a kind of thing the request names
    if kinded:  # "limit it with a usage quota": not a limit rule; «удали под …»: the pod's delete
        named = [k for k in kinded if said & _own_stems(api(k))] or kinded
    named = with_fields(named, fields_written(writes, api, verb, words, stated), kinded)  # "the email of X"
    named += [k for k in writes if k in members and k not in named]  # to the things in where it goes
    named = own_routes(named)  # not the same write under a parent (``twin_routes``)
    return named or (writes if orders_write(verb) else []) or hits  # an unknown verb: only a write saying it


def _done_as(verb: str) -> set[str]:
    """The stems of the action ``verb``'s action is done as where no write says it (``DONE_AS``: cancel ->
    delete, remove, …); none for another verb."""
    action = next((a for a, forms in REQUEST_WORDS.items() if verb in forms), "")
    other = DONE_AS.get(action, "")
    return {stem(w) for w in REQUEST_WORDS.get(other, ()) if w.isascii()}


def _creates_named(key: str, writes: Collection[str], stated: Collection[str]) -> bool:
    """``POST /a/things`` when a write of ``/a/things/{…}`` is among ``writes`` and a thing of that kind
    is named (``stated``): the collection's create, not a change of the thing named."""
    method, _, path = key.partition(" ")
    if method != "POST" or singular(path.rstrip("/").rsplit("/", 1)[-1]) not in stated:
        return False
    return any(w.partition(" ")[2].startswith(f"{path.rstrip('/')}/{{") for w in writes)


def said_new(text: str, kind: str) -> bool:
    """Whether ``text`` says a new thing of ``kind``: an indefinite article, "new" or "another" before the
    kind noun ("Set up a server web-2", "Start a new server named web-2"), not "the server web-1"."""
    return bool(re.search(rf"\b(?:an?|new|another)\s+(?:new\s+)?{re.escape(kind)}\b", text, re.IGNORECASE))


def says_verb(api: Api | None, verb: str) -> bool:
    """Whether an API's path or title says ``verb`` (or the action it is done as, ``_done_as``); an HTTP
    ``DELETE`` says every verb of deleting ("remove it": ``DELETE /boxes/{name}`` titled "Delete a box")."""
    own = _own_stems(api)
    if api is not None and api.key.startswith("DELETE ") and verb in REQUEST_WORDS["delete"]:
        return True
    return bool(_verb_stems(verb) & own or _done_as(verb) & own)


def _verb_stems(verb: str) -> set[str]:
    """The stems a write's path or title says the verb with: its own, and for a verb not written in
    Latin letters those of its action's Latin words («удали»: delete, remove, erase)."""
    out = {stem(verb)} | {stem(w) for w in SAID_AS.get(verb, ())}  # "say": post, send, write
    if verb and not verb.isascii():
        out |= {stem(CHANGE_VERBS_EN[verb])} if verb in CHANGE_VERBS_EN else set()  # «закрепи»: pin
        for forms in REQUEST_WORDS.values():
            if verb in forms:
                out |= {stem(f) for f in forms if f.isascii()}
    return out


_WHOLE_WRITES = ("DELETE", "PUT", "PATCH")  # a POST to the collection creates: no change to every item


def collection_write(key: str) -> str:
    """The same write done to a whole collection: ``DELETE …/boxes/{name}`` -> ``DELETE …/boxes``; '' when
    the key's path does not end in an item's parameter."""
    method, _, path = key.partition(" ")
    head, _, last = path.rstrip("/").rpartition("/")
    return f"{method} {head}" if method in _WHOLE_WRITES and last.startswith("{") and head else ""


def says_every(words: Sequence[str]) -> bool:
    """The request says the change is done to every thing of a kind ("all", "every", «все»)."""
    return any(w.lower() in EVERY_WORDS for w in words)


def composed(api: Api, slot: Slot) -> bool:
    """Whether ``slot`` is the object a write's body carries (a patch document): the change the request
    orders, which the caller composes from it, not a value to look up: asked, at no cost (a ``PUT`` or
    ``POST`` whose body fields are optional costs none either)."""
    return (
        not reads(api)
        and slot.table is None
        and slot.json_type == "object"
        and any(p.name == slot.name and p.location == "body" for p in api.params)
    )


def replaces_whole(api: Api, patch: Api | None, words: list[str]) -> bool:
    """Whether ``api`` is a ``PUT`` (a whole thing replaced) whose path a ``PATCH`` (``patch``, one the
    caller may call) also serves, and the request says no word of the ``PUT``'s title that the ``PATCH``'s
    lacks ("replace"): a change a request orders ("scale …", "label …") is a partial one unless it says
    otherwise."""
    if patch is None or not api.key.startswith("PUT "):
        return False
    own = set(stems(api.title)) - set(stems(patch.title))
    return not own & {s for w in words for s in stems(w)}


def _title_stems(api: Api | None) -> set[str]:
    """The stems of an API's title (a ``DELETE`` titled "Cancel a booking" cancels), a hyphenated word's
    also as one ("Un-stars": unstar)."""
    if api is None:
        return set()
    return set(stems(api.title)) | set(stems(_HYPHEN.sub("", api.title)))


_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def _own_stems(api: Api | None) -> set[str]:
    """The stems of an API's path (its method left out: every write's key says POST) and title."""
    if api is None:
        return set()
    return set(stems(api.key.split(" ", 1)[-1])) | _title_stems(api)
