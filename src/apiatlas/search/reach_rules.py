"""The rules that judge a request out of the catalog's reach, and those that keep it served, over the
signals ``reach.reach_signals`` reads (the method: ``search.reach``'s docstring; the figures: docs/search.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from apiatlas.search.reach import REACH_SIGNALS

# the rule (fitted on the development halves of the bank, RestBench, StableToolBench, Stripe, Slack and
# Kubernetes, full catalogs, hybrid: no related request with its gold in the top 5 lost on any of them)
MAX_MARGIN = 0.01  # best cosine at most this far above the catalog's null cosine
MAX_STANDOUT = 0.03  # ... and at most this far above the median of the dense candidates (cos_gap_median)
MAX_LEXICAL = 1.2  # ... the best lexical hit weak (lex_per_term below this)
MIN_ABSENT = 0.25  # ... and at least this share of the request's content words absent from the catalog

# the second way (read off the same development halves; docs/search.md, "Word matches without meaning")
MAX_SUPPORT = -0.01  # the lexical first hit's cosine at least this far below the catalog's null cosine
MAX_SUPPORT_LENGTH = 7  # ... in a request of at most this many distinct stems (the null's are 3 words)
# (the second way spares a request one first hit holds whole, its words' first card within ``MAX_MARGIN``
# of the meaning's first: ``whole_and_near``)

# a request in another script whose meaning picks out one thing of the catalog (``meaning_gathers``): its
# best cosine stands ``MAX_STANDOUT`` out of the dense candidates and this share of the first ten dense
# hits, over the share of the catalog's APIs, are of its business object
MIN_GATHERED = 0.3

# the third and fourth ways (docs/search.md, "Requests that name nothing of the catalog")
MAX_FAR_MARGIN = 0.0  # a request with unread foreign words: its best cosine below the catalog's null

# words the catalog serves (docs/search.md, "Words past the verb, and words that back the answer")
MIN_KNOWN_HELD = 5  # the second way spares a request with this many content words the catalog has ...
MIN_HELD_SHARE = 0.6  # ... this (rarity-weighted) share of them held by one of the first hits
MIN_BACKED_SUPPORT = 0.05  # the card the words rank first this far above the null, holding every content
# word (``held`` 1): the shared model's doubt does not make the search abstain
MAX_GATHERED_DEPTH = MIN_BACKED_SUPPORT  # ``meaning_gathers``: the best cosine no farther under the null


def out_of_reach(signals: Mapping[str, float]) -> bool:
    """Whether the request is out of the catalog's reach (module docstring); False without the signals."""
    if any(name not in signals for name in REACH_SIGNALS):
        return False
    if signals["alien"]:
        return (
            unread_and_far(signals) or unread_and_unmarked(signals) or read_across_and_held_by_no_hit(signals)
        )
    return (
        (
            signals["reach_margin"] < MAX_MARGIN
            and signals.get("cos_gap_median", 0.0) < MAX_STANDOUT
            and signals.get("lex_per_term", 0.0) < MAX_LEXICAL
            and signals["absent"] >= MIN_ABSENT
        )
        or unsupported_words(signals)
        or no_catalog_word(signals)
        or held_by_no_hit(signals)
    )


def no_catalog_word(signals: Mapping[str, float]) -> bool:
    """A request in the catalog's script that gives no value and whose content words are all absent from
    the catalog: it names only things the catalog never mentions, with action and function words the
    catalog has ("schedule a dentist appointment", "find a dentist near me") — unless the meaning backs
    the word match: the card the words rank first is the one the meaning ranks first (``agree``). A small
    catalog's vocabulary lacks many words its users say for its things ("add a patron" to a library that
    registers readers). Callers check ``REACH_SIGNALS`` and ``alien``."""
    return (
        signals["absent"] >= 1.0
        and not signals["known"]
        and not signals["values"]
        and not signals.get("agree", 0.0)
    )


def held_by_no_hit(signals: Mapping[str, float]) -> bool:
    """A request none of whose content words any of the first hits holds — they match its action or
    function words only ("create an S3 bucket for backups": the creates) —, or none of whose words past
    the first (``held_after``: they match its verb only, "reset my laptop password"), and the card its
    words rank first no closer to it than random words are to the catalog, give or take ``MAX_MARGIN``.
    Callers check ``REACH_SIGNALS`` and ``alien``. Not when its action word names what one of the first
    hits is about (``kind_verb``: "remind me to review the notes at 3pm", the reminders first) and its
    meaning stands ``MAX_MARGIN`` above the null, as the first rule asks: the verb says what about too,
    and the meaning backs it ("schedule a dentist appointment" matches a catalog's scheduling by the verb
    alone, its meaning at the null)."""
    spared = signals.get("kind_verb", 0.0) and signals["reach_margin"] >= MAX_MARGIN
    unheld = not signals["held"] or not signals["held_after"]
    return unheld and signals["support"] < MAX_MARGIN and not spared


def unread_and_far(signals: Mapping[str, float]) -> bool:
    """A request with a word in another script than the catalog's main one whose foreign words are read
    as no catalog word (one at least), whose other content words are not the catalog's either, and whose
    best cosine lies below the catalog's null: neither its words nor its meaning are the catalog's —
    unless the meaning picks out one thing of the catalog (``meaning_gathers``)."""
    return (
        signals["unread"] >= 1
        and not signals["known"]
        and signals["reach_margin"] < MAX_FAR_MARGIN
        and not meaning_gathers(signals)
    )


def unread_and_unmarked(signals: Mapping[str, float]) -> bool:
    """A request with a word in another script than the catalog's main one whose foreign words are read
    as no catalog word (one at least) and whose other content words are not the catalog's either (as
    ``unread_and_far``), that gives no value (no name, id or number), whose meaning ranks first another
    card than its words (``agree`` 0), lifts no card out of the dense candidates (``cos_gap_median``
    under ``MAX_STANDOUT``) and whose best cosine lies at the null, give or take ``MAX_MARGIN`` (as the
    first rule asks): nothing of it but an action or function word is the catalog's («включи музыку»:
    enable read across, the music unread, 0.006 above the null). An unread word is no proof the catalog
    lacks it — the bridge misses words the catalog has («обнови образ контейнера» over Kubernetes:
    image and container unread, 0.022 above the null) — so a meaning standing above the null keeps the
    request. Callers check ``REACH_SIGNALS``."""
    return (
        signals["unread"] >= 1
        and not signals["known"]
        and not signals["values"]
        and not signals.get("agree", 0.0)
        and signals.get("cos_gap_median", 0.0) < MAX_STANDOUT
        and signals["reach_margin"] < MAX_MARGIN
    )


def meaning_gathers(signals: Mapping[str, float]) -> bool:
    """Whether the meaning picks out one thing of the catalog: its first card stands out of the dense
    candidates (``cos_gap_median`` at least ``MAX_STANDOUT``, the bound the other ways read as "no card
    stands out") and ``MIN_GATHERED`` or more of the first ten dense hits, beyond that object's share of
    the catalog's APIs, are of that card's business object (``gathered``, ``reach.gathered``). The null
    is made of words of the catalog's main script, and a request in another script stands lower against
    the cards whatever it asks («выключи режим «не беспокоить»»: its first cards all of one object, 0.02
    under an English catalog's null) — but not farther under it than ``MAX_GATHERED_DEPTH`` (as far as
    ``words_back_the_answer`` asks the words' card to stand above it: «какой сейчас курс доллара?» gathers
    on one object too, 0.068 under); a request the catalog does not serve finds no object, or no card
    standing out. Callers check ``REACH_SIGNALS``."""
    return (
        signals.get("cos_gap_median", 0.0) >= MAX_STANDOUT
        and signals.get("gathered", 0.0) >= MIN_GATHERED
        and signals["reach_margin"] >= -MAX_GATHERED_DEPTH
    )


def read_across_and_held_by_no_hit(signals: Mapping[str, float]) -> bool:
    """A request with a word in another script than the catalog's main one that says words the catalog
    has (``known`` >= 1: a foreign word read across counts), none of them — or none past its first word —
    held by any of the first hits, and the card its words rank first no nearer than random words
    (``held_by_no_hit``): the word read across matches nothing the hits are about («перезапусти сервер
    базы данных» over a chat API: "server" read, no first hit says it). Its best cosine is no evidence
    either way (the related and unrelated requests in another script overlap); a request without a word
    read across is left to ``unread_and_far``. Callers check ``REACH_SIGNALS``."""
    return signals["known"] >= 1 and held_by_no_hit(signals)


def unsupported_words(signals: Mapping[str, float]) -> bool:
    """A short request whose best word match has no meaning behind it: the lexical first hit is no closer
    to the request than random words are to the catalog, the meaning ranks another card first (``agree``
    0), and no card stands out of the dense candidates. Callers check ``REACH_SIGNALS`` and ``alien``."""
    return (
        signals["support"] < MAX_SUPPORT
        and not signals.get("agree", 0.0)
        and signals.get("cos_gap_median", 0.0) < MAX_STANDOUT
        and signals["length"] <= MAX_SUPPORT_LENGTH
        and not many_words_held(signals)
        and not whole_and_near(signals)
        and not only_values(signals)
    )


def only_values(signals: Mapping[str, float]) -> bool:
    """A request made of an action word and the values it hands the catalog — a name given as a value
    (``named``: "invite Bob to #general") and no content word at all (``known`` and ``absent`` 0): no
    word of it can lack meaning behind it. A name that modifies a thing ("a Jira ticket") is no value,
    and the thing it modifies is a content word. Callers check ``REACH_SIGNALS``."""
    return signals.get("named", 0.0) >= 1 and not signals["known"] and not signals["absent"]


def whole_and_near(signals: Mapping[str, float]) -> bool:
    """A request whose content words the catalog has (one at least), all held by one of the first hits
    (``held`` 1), and whose words' first card stands within ``MAX_MARGIN`` of the cosine of the meaning's
    first (``support`` against ``reach_margin``: both read against the null): the meaning ranks another
    card first by a hair, not another thing ("set my presence to away": the words' card third by meaning,
    0.004 under the first, every card under the null). A chance match holds part of the request, or its
    card lies well under the meaning's first ("track the delivery of my package" over a payments API: 0.04).
    Callers check ``REACH_SIGNALS``."""
    return (
        signals["known"] >= 1
        and signals["held"] >= 1.0
        and signals["support"] >= signals["reach_margin"] - MAX_MARGIN
    )


def many_words_held(signals: Mapping[str, float]) -> bool:
    """A request that says ``MIN_KNOWN_HELD`` or more content words the catalog has, most of them (by
    rarity) held by one of the first hits: the catalog's own vocabulary, whatever the cosine of the card
    the words rank first says (a long question in the catalog's words whose first word match stands
    under the null while the right card is among the first hits). Unrelated requests that match
    the catalog by chance share one to four of its words. Callers check ``REACH_SIGNALS``."""
    return signals["known"] >= MIN_KNOWN_HELD and signals["held"] >= MIN_HELD_SHARE


def words_back_the_answer(signals: Mapping[str, float]) -> bool:
    """Whether the request's words back its answer past the shared model's doubt: a request in the
    catalog's main script that says content words the catalog has (``known``: ``held`` is 1 for a request
    without any, "cancel that"), all held by one of the first hits (``held`` 1), and whose words' first
    card stands ``MIN_BACKED_SUPPORT`` or more above the catalog's null cosine (five times the first rule's
    margin). The shared model reads cosines on one scale for every catalog (module docstring); this reads
    them against the catalog's own null. A request with a word in another script is read across
    (``read_across_and_held``). False without the reach signals."""
    if any(name not in signals for name in REACH_SIGNALS):
        return False
    if signals["alien"]:
        return read_across_and_held(signals)
    return signals["known"] >= 1 and signals["held"] >= 1.0 and signals["support"] >= MIN_BACKED_SUPPORT


def read_across_and_held(signals: Mapping[str, float]) -> bool:
    """A request with a word in another script than the catalog's main one whose words are the catalog's
    — one at least (``known``: a foreign word read as a catalog word counts), all held by one of the
    first hits (``held`` 1) — and whose meaning lies above the catalog's null by ``MAX_MARGIN``: the
    words back the answer across scripts («заархивируй канал old-news» over an English spec). Its words'
    first card (``support``) says little here: the fused ranking weighs its lexical side down by the
    unread words, and one word read across matches many cards alike. Callers check ``REACH_SIGNALS``."""
    return signals["known"] >= 1 and signals["held"] >= 1.0 and signals["reach_margin"] >= MAX_MARGIN
