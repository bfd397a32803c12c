"""The actions a request asks for and an operation's name says (create, update, close, ...), in English
and Russian: the request's words for each action and a procedure name's verbs."""

from __future__ import annotations

import re
from collections.abc import Sequence

# a procedure name's verb and the action it does (the request's word for it): the writes and the
# other named actions of a procedure catalog; reads (``READ_VERBS``) say none
PROCEDURE_VERBS: dict[str, str] = {
    "add": "create", "create": "create", "insert": "create", "new": "create", "register": "create",
    "upd": "update", "update": "update", "edit": "update", "modify": "update", "change": "update",
    "del": "delete", "delete": "delete", "remove": "delete",
    "open": "open", "close": "close", "lock": "lock", "block": "lock", "unlock": "unlock",
    "unblock": "unlock", "cancel": "cancel", "revoke": "cancel", "print": "print", "export": "export",
    "import": "import", "load": "import", "confirm": "confirm", "approve": "confirm",
}  # fmt: skip
# the verbs a read opens its name with: a name that checks whether it can close does not close
READ_VERBS = frozenset(
    ("find", "get", "check", "browse", "list", "search", "select", "read", "fetch", "show", "calc")
)
# the words after which a request word is a verb ("can you show", "please add", "and then delete")
BEFORE_A_VERB = frozenset(("please", "you", "to", "and", "then", "also", "пожалуйста", "и", "затем", "также"))


def is_read_verb(word: str) -> bool:
    """A (lower-case) read verb of ``READ_VERBS`` or a name's abbreviation of one (four letters or more:
    "brow" of "browse")."""
    return word in READ_VERBS or (len(word) >= 4 and any(v.startswith(word) for v in READ_VERBS))


# the words a request says an action with, as written (base forms: imperative, infinitive), English
# and Russian: "shows" in "the shows" and "created" in "when was it created" ask for nothing
REQUEST_WORDS: dict[str, tuple[str, ...]] = {
    "list": ("list", "enumerate", "перечисли", "перечислить"),
    "retrieve": ("retrieve", "get", "fetch", "получи", "получить"),
    "create": ("create", "add", "make", "register", "создай", "создать", "добавь", "добавить", "заведи"),
    "update": (
        "update", "change", "edit", "modify", "rename", "измени", "изменить", "обнови", "обновить",
        "поменяй", "поменять", "исправь", "исправить",
    ),
    "delete": ("delete", "remove", "erase", "удали", "удалить"),
    "open": ("open", "открой", "открыть", "откройте"),
    "close": ("close", "закрой", "закрыть", "закройте"),
    "lock": ("lock", "block", "freeze", "заблокируй", "заблокировать", "заморозь", "заморозить"),
    "unlock": ("unlock", "unblock", "unfreeze", "разблокируй", "разблокировать", "разморозь"),
    "cancel": ("cancel", "revoke", "отмени", "отменить", "отзови", "отозвать", "аннулируй"),
    "print": ("print", "распечатай", "распечатать", "напечатай", "напечатать"),
    "export": ("export", "экспортируй", "экспортировать"),  # "выгрузи список": a list as often as a file
    "import": ("import", "загрузи", "загрузить", "импортируй"),
    "confirm": ("confirm", "approve", "подтверди", "подтвердить"),
}  # fmt: skip

# verbs that name how a thing is sent, said as sending it ("email it to the customer": send it)
SENT_AS = {"email": "send", "mail": "send"}
# what an action is done as where no operation says it: a cancel deletes the thing (a booking, a scheduled
# message) when no write of the catalog says cancelling
DONE_AS = {"cancel": "delete"}

# an action said by a verb and its object noun ("сними блокировку": unlock, as «снятие блокировки»;
# "lift the freeze"), where the verb alone says another or none («сними деньги»: a withdrawal): verb ->
# {noun (as written, an article between allowed): action}
_LIFTED = {"блокировку": "unlock", "блокирование": "unlock", "блок": "unlock", "запрет": "unlock",
           "ограничение": "unlock", "ограничения": "unlock", "заморозку": "unlock"}  # fmt: skip
_IMPOSED = {"блокировку": "lock", "блок": "lock", "запрет": "lock", "ограничение": "lock",
            "ограничения": "lock"}  # fmt: skip
_LIFTED_EN = {"block": "unlock", "lock": "unlock", "freeze": "unlock", "hold": "unlock",
              "restriction": "unlock", "restrictions": "unlock", "ban": "unlock"}  # fmt: skip
PHRASAL_ACTIONS: dict[str, dict[str, str]] = {
    "сними": _LIFTED, "снять": _LIFTED, "снимите": _LIFTED,
    "наложи": _IMPOSED, "наложить": _IMPOSED, "наложите": _IMPOSED,
    "поставь": _IMPOSED, "поставить": _IMPOSED, "установи": _IMPOSED, "установить": _IMPOSED,
    "lift": _LIFTED_EN, "remove": _LIFTED_EN,
}  # fmt: skip
ARTICLES = frozenset(("the", "a", "an"))
WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)  # a letter, then letters, digits, apostrophes, hyphens

# the prefixes that reverse a verb, which a catalog may write with a hyphen ("Un-stars an item")
REVERSING_PREFIXES = ("un", "de", "dis", "non")

# the words a request names what it looks a thing up by with, before the key and its value ("по номеру
# договора Д-1", "по БИК 044525225", "by contract number D-1")
LOOKUP_WORDS = frozenset(("по", "by"))

# verbs a request asks to see something with, English and Russian (an action of their own in "... and
# show its members", «… и покажи его …»)
ASKING_VERBS = frozenset(
    ("show", "display", "tell", "list", "get", "find", "give", "check", "read", "fetch", "retrieve", "search",
     "look", "see", "view", "describe", "count", "provide", "obtain", "locate", "calculate", "compute",
     "покажи", "покажите", "показать", "выведи", "выведите",
     "найди", "найдите", "перечисли", "получи", "дай", "дайте", "проверь", "посмотри", "узнай")
)  # fmt: skip
# verbs that make a copy: a thing read, then one like it created ("copy the report X to …"), each
# verb -> the read's and the create's words in its language
COPY_VERBS: dict[str, tuple[str, str]] = {
    "copy": ("get", "create"), "duplicate": ("get", "create"), "clone": ("get", "create"),
    "скопируй": ("получи", "создай"), "скопировать": ("получить", "создать"),
    "клонируй": ("получи", "создай"), "продублируй": ("получи", "создай"),
}  # fmt: skip
# verbs that order a change (a write), besides the actions of ``REQUEST_WORDS`` other than list and
# retrieve: what a request says to post, send, invite, archive ... with, in base forms
CHANGE_VERBS = frozenset(
    ("post", "send", "write", "reply", "invite", "archive", "unarchive", "pin", "unpin", "upload",
     "set", "mark", "scale", "label", "tag", "expose", "copy", "move", "restart", "start", "stop",
     "assign", "share", "publish", "submit", "kick", "join", "leave", "complete", "schedule", "patch",
     "replace", "attach", "detach", "grant", "apply", "put", "react", "say", "remind",
     "напиши", "написать", "отправь", "отправить", "пошли", "опубликуй", "пригласи", "архивируй",
     "заархивируй", "закрепи", "открепи", "переименуй", "масштабируй", "пометь", "отметь", "скопируй",
     "перенеси", "перемести", "перезапусти", "запусти", "останови", "назначь", "поставь", "установи",
     "ответь", "прикрепи", "выдай", "напомни", "включи", "включить", "отключи", "отключить", "выключи",
     "выключить", "активируй", "деактивируй", "привяжи", "повесь")
) | frozenset(COPY_VERBS)  # fmt: skip
_READ_ACTIONS = ("list", "retrieve")
# the Russian change verbs of ``CHANGE_VERBS`` as an English catalog's writes say them («закрепи»: pin)
CHANGE_VERBS_EN = {
    "напиши": "post", "написать": "post", "отправь": "send", "отправить": "send", "пошли": "send",
    "опубликуй": "publish", "пригласи": "invite", "архивируй": "archive", "заархивируй": "archive",
    "закрепи": "pin", "открепи": "unpin", "переименуй": "rename", "масштабируй": "scale", "пометь": "mark",
    "отметь": "mark", "перенеси": "move", "перемести": "move", "перезапусти": "restart", "запусти": "start",
    "останови": "stop", "назначь": "assign", "ответь": "reply", "прикрепи": "attach", "выдай": "grant",
    "напомни": "remind",
    "включи": "enable", "включить": "enable", "отключи": "disable", "отключить": "disable",
    "выключи": "disable", "выключить": "disable", "активируй": "activate", "деактивируй": "deactivate",
    "привяжи": "bind",
}  # fmt: skip
# verbs a catalog's writes say otherwise, each -> the verbs they say it with: saying something to
# others is posting, sending or writing it ("… and say hi there")
SAID_AS: dict[str, tuple[str, ...]] = {"say": ("post", "send", "write")}

# a Russian verb and its object said as one English verb, where the verb alone says another or none
# («верни деньги»: refund; «верни книгу»: return it), verb -> {object as written: the English verb}
_REFUNDED = {w: "refund" for w in ("деньги", "средства", "оплату", "платёж", "платеж", "платежи")}
PHRASAL_EN: dict[str, dict[str, str]] = {v: _REFUNDED for v in ("верни", "вернуть", "верните", "возврати")}


def phrasal_verb(words: Sequence[str]) -> str:
    """The English verb lower-case ``words`` open with as a verb and its object (``PHRASAL_EN``: «верни
    деньги …» -> refund), the object among the three words after the verb («верни мне деньги …»,
    «верни покупателю b_1 деньги»), '' for none."""
    objects = PHRASAL_EN.get(words[0], {}) if words else {}
    return next((objects[w] for w in words[1:4] if w in objects), "")


# a passive participle's endings (its «-нн-» / «-т-» and an adjective's ending): «закреплённые», «открытый»
_ENDING = r"(?:[её]нн|анн|янн|нн|т)(?:ый|ая|ое|ые|ого|ой|ую|ых|ым|ыми|ом|ому)"
_PARTICIPLE, _PARTICIPLE_END = re.compile(_ENDING + "$"), re.compile(_ENDING)
# the last letters of a verb's stem -> those its participle may say instead («пометь» → «помеченный»,
# «закрепи» → «закреплённый», «запусти» → «запущенный», «напиши» → «написанный»); others stay
_ALTERNATING = {
    "т": ("т", "ч", "щ"), "ст": ("ст", "щ"), "д": ("д", "ж", "жд"), "с": ("с", "ш"), "ш": ("ш", "с"),
    "з": ("з", "ж"), "к": ("к", "ч"), "г": ("г", "ж"), "п": ("пл", "п"), "б": ("бл", "б"), "в": ("вл", "в"),
    "м": ("мл", "м"), "ф": ("фл", "ф"),
}  # fmt: skip


def participle_verb(word: str) -> str:
    """The change verb of ``CHANGE_VERBS_EN`` whose passive participle the (lower-case) ``word`` is
    («закреплённые сообщения»: «закрепи», the pinned ones; «отправленные»: «отправь»), '' for none: the
    verb's stem (its imperative ending dropped, «-уй» read as «-ова»), its last letter — two after «ст» —
    as it stays or alternates (``_ALTERNATING``), then a participle's ending and nothing between
    («отменённые» is no «отметь», «ответственный» no «ответь»). Says what a thing is, orders nothing."""
    if len(word) < 7 or not _PARTICIPLE.search(word):
        return ""
    for verb in CHANGE_VERBS_EN:
        base = verb[:-2] + "ова" if verb.endswith("уй") else verb.rstrip("иьй")
        head = base[: max(4, len(base) - (2 if base.endswith("ст") else 1))]
        tail = base[len(head) :]
        for said in _ALTERNATING.get(tail, (tail,)) if word.startswith(head) else ():
            if word.startswith(head + said) and _PARTICIPLE_END.fullmatch(word, len(head) + len(said)):
                return verb
    return ""


WRITE_WORDS = CHANGE_VERBS | frozenset(
    w for action, forms in REQUEST_WORDS.items() if action not in _READ_ACTIONS for w in forms
)
# verbs that order a change with one object and ask with another, each -> the objects it asks with, as
# written after it (past a pronoun «мне», "me"): «выдай доступ» grants, «выдай список книг» shows a list
_SHOWN = frozenset(
    ("список", "перечень", "информацию", "сведения", "данные", "отчёт", "отчет", "все", "всех")
)
ASKING_WITH: dict[str, frozenset[str]] = {"выдай": _SHOWN, "выдайте": _SHOWN, "выдать": _SHOWN}
_RECIPIENTS = frozenset(("мне", "нам", "me", "us"))
# what is given, never shown, after «все» («выдай все права пользователю …»: a grant)
_GIVEN = frozenset(
    ("права", "прав", "разрешения", "разрешений", "роли", "ролей", "доступы", "доступов", "привилегии",
     "привилегий", "полномочия", "полномочий")
)  # fmt: skip


def asks_with_object(words: list[str]) -> bool:
    """Whether lower-case ``words`` open with a verb of ``ASKING_WITH`` before an object it asks with
    («выдай список книг», «выдай мне все книги»; not «выдай все права …», ``_GIVEN``)."""
    if not words or words[0] not in ASKING_WITH:
        return False
    rest = [w for w in words[1:4] if w not in _RECIPIENTS]
    if rest[:1] in (["все"], ["всех"]) and rest[1:2] and rest[1] in _GIVEN:
        return False
    return bool(rest) and rest[0] in ASKING_WITH[words[0]]


def orders_write_in(words: list[str]) -> bool:
    """Whether any of lower-case ``words`` orders a change (``orders_write``), a verb asking with its
    object (``asks_with_object``) none."""
    return any(orders_write(w) and not asks_with_object(words[n:]) for n, w in enumerate(words))


# every word a request says an action with: where a request's second action starts ("... and pin it")
ACTION_WORDS = ASKING_VERBS | WRITE_WORDS | frozenset(w for forms in REQUEST_WORDS.values() for w in forms)


def orders_write(word: str) -> bool:
    """A (lower-case) verb that orders a change: post, archive, invite, delete, создай, удали …; a Russian
    one in the polite imperative too, its «-те» after the imperative («удалите», «создайте»)."""
    return word in WRITE_WORDS or (word.endswith("те") and word[:-2] in WRITE_WORDS)


def as_sent(text: str, verb: str) -> tuple[str, str]:
    """``text`` and its ``verb`` with a verb naming how a thing is sent said as sending it (``SENT_AS``:
    "email it to the owner" -> "send it to the owner", send); as they were for another verb."""
    if verb not in SENT_AS:
        return text, verb
    return re.sub(rf"\b{verb}\b", SENT_AS[verb], text, count=1, flags=re.IGNORECASE), SENT_AS[verb]
