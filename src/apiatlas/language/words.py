"""General English and Russian words: function words, question words, the verbs of asking and of actions.

One list per kind of word, shared by search (which words weigh nothing), planning (which request words
carry content, which capitalised words never start a name) and value extraction.
"""

from __future__ import annotations

import re


def _listed(text: str) -> frozenset[str]:
    """The space-separated words of ``text``."""
    return frozenset(text.split())


# Function words (prepositions, conjunctions, particles, pronouns) that tell no API from another: a
# lexical hit needs a query word outside them (unless the query has no other), and a hit's "why" leaves
# them out.
FUNCTION_WORDS = _listed(
    "в во на по с со у о об от до за из к ко для при про над под без через между и или а но не ни ли "
    "же бы то что как это эти этот эта его её ее их мне нам вам все всё мой моя мои "
    "я ты он она оно мы вы они меня тебя тебе нас вас него неё нее них ему ей ним ней нём нем "
    "себя себе свой своя свои своих "
    "the a an of in on at to for by and or is are was were be been with from as it its that this "
    "these those what which who how me my i we our you your he him his she her they them their "
    "do does did can could would should will has have had am there please"
)
# other forms of function words (a preposition's euphonic form before «мной», «всём»; a pronoun's cases):
# stemmed as a function word, they are that word, not a borrowed noun's form («подов», ``search.bridge``)
FUNCTION_FORMS = _listed(
    "подо надо обо изо передо предо нами ними нему этих этим этими этом этой этого этому"
)
# the prepositions among the function words and their forms: a preposition governs a word of its own
# script, so one before a name in another script, a number or nothing is some other word (``search.bridge``)
GOVERNING_WORDS = _listed(
    "в во на по с со у о об от до за из к ко для при про над под без через между подо надо обо изо передо "
    "предо of in on at to for by with from"
)
# English prepositions the function words leave out: no name ("the persistent volume behind it")
PREPOSITIONS = _listed(
    "behind under above below beneath inside within across through into onto over between among "
    "beside near around after before about against toward towards"
)
# words that open a clause, not an action ("… and whether it is running", «… и если его нет»)
CLAUSE_WORDS = _listed(
    "whether if why because unless once since while until though although when where "
    "ли если почему потому пока хотя когда где"
)
# question words (what a request asks: "when", "где")
QUESTION_WORDS = _listed("what who whom which when where how что кто где когда как какие какой какая")
# question words that ask the way to do a thing ("how do I suspend …", «как приостановить …»), an amount
# only with a word of amount after them ("how many", "how much")
MANNER_WORDS = _listed("how как")
AMOUNT_WORDS = _listed("many much")
# the verbs of asking ("give me", "найди", "покажи"): they ask for something, they name nothing ("show"
# is no such word: it names a thing as often as it asks)
ASKING_WORDS = _listed(
    "give tell find get list want need "
    "найди найти найдите покажи покажите показать выведи выведите дай дайте нужен нужна нужны нужно"
)
# words of amount, degree and time that name no thing ("many", "currently", "есть")
FILLER_WORDS = _listed(
    "many much some any one more most no not yet also additionally so just about right now currently than "
    "dose i'm "
    "есть был была было были нет да"
)
# a request word with no content of its own: what the planner leaves out of a request's words
PLAIN_WORDS = FUNCTION_WORDS | QUESTION_WORDS | ASKING_WORDS | FILLER_WORDS

# words that start an English sentence or are generic: a capitalised one never starts a name on its own
SENTENCE_WORDS = _listed(
    "what who when where which how is are was give tell show list i i'm please find get the a an and "
    "or of in on for to me some any do does dose did can could would top top-1 top-10 english today "
    "today's recommend has have my also additionally then"
)
# words inside a name ("The Lord of the Rings"), never at its end
NAME_LINKS = _listed("of the and as a in on to")
# words between a noun and the id it names ("the user with id U123"), and verbs of asking ("show U123")
ID_LINKS = _listed(
    "id ids identifier with the a an of number no for by in on at from to and or is was about me show "
    "get give find list fetch display tell what who which"
)
# words saying a change is done to every thing of a kind ("restart all the servers", «удали все записи»)
EVERY_WORDS = frozenset(("all", "every", "each", "все", "всех", "каждый", "каждого", "всё"))
# words naming people in general (the kind of thing a person-describing API returns)
PERSON = "person"
PEOPLE_WORDS = frozenset(("person", "people", "persons"))
# words asking whose a thing is: the answer is a person (its owner), whatever the thing is
OWNER_WORDS = _listed(
    "whose owner owners owns owned belongs belong чей чья чьё чье чьи кому принадлежит принадлежат "
    "владелец владельца владельцу владельцем владельце владельцы владельцев"
)
# output columns that describe a person (a surname and a birth date, not just a name)
PERSON_FIELDS = frozenset(
    {"surname", "lastname", "familyname", "firstname", "givenname", "patronymic", "middlename",
     "birthdate", "birthday", "dateofbirth", "placeofbirth"}
)  # fmt: skip
# words of an API's key saying it searches or ranks many kinds of thing, not about one
SEARCHING_WORDS = frozenset(("search", "discover", "trending", "find", "lookup"))
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "первый": 1, "второй": 2, "третий": 3, "четвертый": 4,
}  # fmt: skip
# words asking for the newest of a kind of thing ("the latest message", "its most recent message",
# «последнее сообщение»): the thing is the first item of a list of them
NEWEST_WORDS = _listed(
    "latest last newest recent последний последняя последнее последние последнего последней свежий "
    "свежее новейший"
)
# Russian month stems and their numbers ("ма" is май / мая)
MONTHS_RU = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6,
    "июл": 7, "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
}  # fmt: skip
# English month names and their numbers
MONTHS_EN = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}  # fmt: skip
# nouns of time: "for those dates", «на эти дни» point back at a time, not at a thing found before
TIME_NOUNS = _listed(
    "date dates day days time times duration period week weeks month months year years "
    "дата даты дату день дни дней время срок период неделю недели месяц месяцы год"
)
# words saying a thing as it is now ("the current status", «текущее состояние»), and the one word an
# API's name says it with ("GetRealtimeStatus"): a request word of these reads as that word in the name
# of an API that names the thing it is said of too (``relevance.RequestWord.qualifies``)
PRESENT_WORDS = _listed("current currently текущий текущая текущее текущие текущую текущего")
PRESENT_NAME = "realtime"
# words asking for everything about one thing ("details about the channel X", "information on …"), each
# read as the others: an API's name or title says one of them ("info", "Retrieve information about …")
DETAIL_WORDS = _listed("details detail information info подробности")
# the two ends of a route: the words an input's name says its role with ("originSkyId",
# "destination_id") and the prepositions a request says a place's role with ("from Boston to Paris")
ROUTE_START = _listed("origin source from departure src")
ROUTE_END = _listed("destination dest to target arrival")
START_PREPOSITIONS = _listed("from из")
END_PREPOSITIONS = _listed("to до")
# numbered parts every catalog may have ("page 2")
NUMBERED_WORDS = ("page", "страница")
# words by which a request's later action points back at what an earlier one named ("… and pin it",
# "… and show its members", «… и покажи его участников»)
REFERRING_WORDS = _listed(
    "it its them their they there that this those these him his her "
    "его её ее их него неё нее них ему ей им этот эта это этого этой этих этим туда там"
)
# fixed pairs joined by "and" / «и» that name one thing, never two ("the terms and conditions of X",
# "grant read and write access"): no action or thing is split at their "and"
FIXED_PAIRS = frozenset(
    ("terms and conditions", "pros and cons", "profit and loss", "research and development",
     "questions and answers", "mergers and acquisitions", "supply and demand", "health and safety",
     "rules and regulations", "goods and services", "terms and policies", "black and white",
     "read and write", "drag and drop", "copy and paste", "cut and paste", "search and replace",
     "find and replace", "plug and play", "bed and breakfast", "trial and error", "wear and tear",
     "odds and ends", "checks and balances", "rock and roll", "arts and crafts", "oil and gas",
     "food and beverage", "food and drink", "sales and marketing", "hardware and software",
     "вопросы и ответы", "правила и условия", "доходы и расходы", "приход и расход")
)  # fmt: skip
_FIXED = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in sorted(FIXED_PAIRS)) + r")\b", re.IGNORECASE)


def fixed_pair_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` says a fixed pair of ``FIXED_PAIRS`` (any case)."""
    return [m.span() for m in _FIXED.finditer(text)]
