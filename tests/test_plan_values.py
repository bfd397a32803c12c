"""Values read from request text: Russian names in any case, dates and periods, identifiers, English names."""

from __future__ import annotations

from apiatlas.catalog.model import Api, Direction, Param, SessionTable
from apiatlas.planning import values as v
from apiatlas.planning.binding import bind
from apiatlas.planning.values import extract_values
from plan_catalogs import media_vocabulary

MEDIA = media_vocabulary()  # the movie database's words (examples/restbench/apiatlas.yaml)


def kinds(text: str) -> dict[str, object]:
    return {f.kind: f.value for f in extract_values(text, MEDIA)}


def test_russian_full_name_in_the_genitive_becomes_the_nominative() -> None:
    assert kinds("обороты по счетам Власовой Юлии Алексеевны") == {
        v.SURNAME: "Власова", v.FIRST_NAME: "Юлия", v.PATRONYMIC: "Алексеевна",
    }  # fmt: skip
    assert kinds("какие счета есть у Нестерова Антона Ивановича") == {
        v.SURNAME: "Нестеров", v.FIRST_NAME: "Антон", v.PATRONYMIC: "Иванович",
    }  # fmt: skip
    assert kinds("адрес регистрации Лазаревой")[v.SURNAME] == "Лазарева"


def test_a_lone_surname_keeps_the_other_reading_as_an_alternative() -> None:
    [found] = extract_values("сделки клиента Михалова по ценным бумагам", MEDIA)
    assert (found.kind, found.value, found.alternatives) == (v.SURNAME, "Михалов", ("Михалова",))


def test_dates_months_and_quarters_become_periods() -> None:
    assert kinds("обороты за март 2026") == {v.DATE_FROM: "2026-03-01", v.DATE_TO: "2026-03-31"}
    assert kinds("сделки за 4 квартал 2025") == {v.DATE_FROM: "2025-10-01", v.DATE_TO: "2025-12-31"}
    assert kinds("остаток на 1 марта 2026")[v.DATE] == "2026-03-01"
    assert kinds("остаток на 05.02.2026")[v.DATE] == "2026-02-05"


def test_identifiers_by_shape() -> None:
    assert kinds("сколько денег на р/с 40817810100012000031") == {v.ACCOUNT_NUMBER: "40817810100012000031"}
    assert kinds("клиент с ИНН 771234567890")[v.INN] == "771234567890"
    assert kinds("кто выпустил RU000A5VURV7")[v.ISIN] == "RU000A5VURV7"
    assert kinds("кто эмитент бумаги в сделке DS-20251124-00011")[v.DOC_NUMBER] == "DS-20251124-00011"
    # capitals of an abbreviation are not a name
    assert v.SURNAME not in kinds("статус сделки РЕПО R-2026-017")


def test_english_names_with_what_they_are() -> None:
    found = {
        f.value: f.hint for f in extract_values("Who was the lead actor in the movie The Dark Knight?", MEDIA)
    }
    assert found == {"Dark Knight": "movie"}
    found = {
        f.value: f.hint
        for f in extract_values("give me the number of movies directed by Sofia Coppola", MEDIA)
    }
    assert found == {"Sofia Coppola": "person"}
    found = {f.value: f.hint for f in extract_values('Who is the director of the movie "Twilight"?', MEDIA)}
    assert found == {"Twilight": "movie"}
    numbers = [
        (f.value, f.hint) for f in extract_values("the second episode of the first season of Friends", MEDIA)
    ]
    assert (2, "episode") in numbers and (1, "season") in numbers


def test_a_relative_clause_says_what_a_name_is_not_and_a_pronoun_that_it_is_a_person() -> None:
    hints = {
        f.value: f.hint
        for f in extract_values("When was the company that produced The Big Bang Theory founded?", MEDIA)
    }
    assert hints == {"Big Bang Theory": "-company"}
    hints = {
        f.value: f.hint
        for f in extract_values("the homepage of the network which aired Game of Thrones", MEDIA)
    }
    assert hints == {"Game of Thrones": "-network"}
    hints = {
        f.value: f.hint
        for f in extract_values("Who has worked with Jeremy Clarkson in his most popular show?", MEDIA)
    }
    assert hints == {"Jeremy Clarkson": "person"}
    hints = {f.value: f.hint for f in extract_values("movies of Greta Gerwig and her husband", MEDIA)}
    assert hints == {"Greta Gerwig": "person"}
    # a pronoun further on refers to someone else; a kind noun before the name still says what it is
    hints = {f.value: f.hint for f in extract_values("Who directed Titanic and what is his birthday?", MEDIA)}
    assert hints == {"Titanic": ""}
    hints = {
        f.value: f.hint for f in extract_values("the company that created the collection Star Wars", MEDIA)
    }
    assert hints == {"Star Wars": "collection"}


def test_values_fill_inputs_by_kind_name_and_type() -> None:
    api = Api(
        key="API_Prs_FindListByFIO",
        object_key="Prs",
        params=[
            Param(name="SurName", domain_type="DSVARFULLNAME", required=True),
            Param(name="FirstName", domain_type="DSVARNAME"),
            Param(name="BirthDate", domain_type="DSDATE"),
        ],
        output_tables=[SessionTable(name="pAPI_Person_FindList", direction=Direction.OUT)],
    )
    found = extract_values("Горбуновой Татьяны на 1 марта 2026", MEDIA)
    bound = {name: b.value for (_, name), b in bind(api, found, {}).items()}
    # a plain date is not a birth date
    assert bound == {"SurName": "Горбунова", "FirstName": "Татьяна"}
    known = {name: b.origin for (_, name), b in bind(api, [], {"surname": "Иванов"}).items()}
    assert known == {"SurName": "known"}


def test_verbs_of_asking_are_not_what_is_asked() -> None:
    from apiatlas.planning.relevance import request_words

    words = [w.word for w in request_words("найди клиента по ИНН 784049299117", ["784049299117"], MEDIA)]
    assert words == ["клиента", "инн"]
    assert [w.word for w in request_words("покажи остаток на счёте", [], MEDIA)] == ["остаток", "счёте"]
    listed = request_words("List movies from the X collection", ["X"], MEDIA)
    assert [w.word for w in listed] == ["movies", "collection"]


def test_an_ordinal_fills_a_number_never_an_id() -> None:
    api = Api(
        key="GET /tv/{tv_id}/season/{season_number}",
        object_key="tv",
        params=[
            Param(name="tv_id", domain_type="integer", required=True),
            Param(name="season_number", domain_type="integer", required=True),
        ],
    )
    found = extract_values("the first tv show of the second season of Friends", MEDIA)
    bound = {name: b.value for (_, name), b in bind(api, found, {}).items()}
    assert bound == {"season_number": 2}


def test_a_second_question_joined_by_and_is_asked_too() -> None:
    from apiatlas.planning.relevance import request_words

    words = request_words("What is the most popular movie right now and what is its keywords?", [], MEDIA)
    positions = {w.word: w.position for w in words}
    assert positions["popular"] == 0.0 and positions["keywords"] == 0.0
    assert positions["movie"] > 0.0
    # one question: the last words are what the data belongs to, not what is asked
    single = {w.word: w.position for w in request_words("the keywords of the most popular movie", [], MEDIA)}
    assert single["keywords"] == 0.0 and single["movie"] == 1.0


def test_names_offered_as_the_answer_to_who_are_people() -> None:
    def hints(text: str) -> dict[str | int, str]:
        return {f.value: f.hint for f in extract_values(text, MEDIA)}

    assert hints("Who directed more movies, Akira Kurosawa or Spielberg?") == {
        "Akira Kurosawa": "person",
        "Spielberg": "person",
    }
    # "who directed X or Y": the names are what was directed; a name before the comma: films offered
    assert hints("Who directed Titanic or Avatar?") == {"Titanic": "", "Avatar": ""}
    assert "person" not in hints("Who is the director of Heat, Ronin or Casino?").values()
    # a kind noun before a comma does not say what the name after it is
    assert hints("the best movies, Akira Kurosawa says") == {"Akira Kurosawa": ""}


def test_a_name_ends_before_a_link_a_common_word_or_a_season_word() -> None:
    def hints(text: str) -> dict[str | int, str]:
        return {f.value: f.hint for f in extract_values(text, MEDIA) if f.kind == v.ENTITY}

    assert hints("reviews of the film Heat and of the TV show Fargo") == {"Heat": "movie", "Fargo": "tv"}
    # a season word next to a name says it is a TV show; one further away says nothing about it
    assert hints("Is the director of Twin Peaks Season 1 and Mulholland Drive the same person?") == {
        "Twin Peaks": "-person",
        "Mulholland Drive": "",
    }
    assert hints("How many episodes does 2 Broke Girls have in total?") == {"2 Broke Girls": "tv"}
    assert hints("the guest star from season 3, episode 24 of Friends") == {"Friends": "tv"}


def test_a_title_word_always_after_a_key_word_stands_for_it() -> None:
    from apiatlas.language.catalog import title_aliases
    from apiatlas.planning.relevance import request_words

    names = {
        "GET /search/tv": ["search", "tv", "show"],
        "GET /tv/{tv_id}/similar": ["get", "similar", "tv", "show"],
        "GET /movie/{movie_id}": ["get", "detail"],
        "GET /tv/{tv_id}": ["get", "detail"],
    }
    aliases = title_aliases(names)
    assert aliases == {"show": "tv"}  # not "detail" for the method GET
    assert title_aliases({**names, "GET /banner": ["show", "banner"]}) == {}  # "show" without "tv" too
    assert title_aliases({"GET /search/tv": ["search", "tv", "show"]}) == {}  # one title is not enough
    [word] = request_words("similar shows", [], MEDIA.model_copy(update={"title_aliases": aliases}))[1:]
    assert word.word == "shows" and {"show", "tv"} <= word.stems


def test_a_name_that_acts_is_a_person() -> None:
    def hints(text: str) -> dict[object, str]:
        return {f.value: f.hint for f in extract_values(text, MEDIA)}

    assert hints("What TV shows has Bryan Cranston acted in?") == {"Bryan Cranston": "person"}
    assert hints("List the movies Meryl Streep starred in") == {"Meryl Streep": "person"}
    # the role before the name did it: the name is the role's film; a singular kind noun still types it
    assert hints("What has the director of Mulholland Drive directed?") == {"Mulholland Drive": "-person"}
    assert hints("Has the movie Heat played in cinemas?") == {"Heat": "movie"}


def test_opaque_ids_an_api_issued_are_values_with_the_noun_they_follow() -> None:
    def ids(text: str) -> list[tuple[str, str]]:
        return [(str(f.value), f.hint) for f in extract_values(text, MEDIA) if f.kind == v.IDENTIFIER]

    assert ids("List the charges of the customer cus_9s6XKzkNRiz8i3") == [("cus_9s6XKzkNRiz8i3", "customer")]
    assert ids("messages of channel C024BE91L from the user with id U01ABCDEF9") == [
        ("C024BE91L", "channel"),
        ("U01ABCDEF9", "user"),
    ]
    assert ids("order 550e8400-e29b-41d4-a716-446655440000") == [
        ("550e8400-e29b-41d4-a716-446655440000", "order")
    ]  # not an INN of its last twelve digits
    # what only looks like an id: a year, a title with a digit, a word with a hyphen, the bank's numbers
    for text in ("movies of 2023", "Who directed Blade Runner 2049?", "COVID-19 movies", "movies like Se7en"):
        assert ids(text) == [], text
    assert kinds("клиент с ИНН 771234567890")[v.INN] == "771234567890"
    assert kinds("кто эмитент бумаги в сделке DS-20251124-00011")[v.DOC_NUMBER] == "DS-20251124-00011"


def test_an_id_fills_the_input_named_by_its_noun_a_filter_too() -> None:
    charges = Api(
        key="GET /v1/charges",
        object_key="v1",
        params=[
            Param(name="customer", domain_type="string"),
            Param(name="payment_intent", domain_type="string"),
        ],
    )
    refunds = Api(
        key="GET /v1/charges/{charge}/refunds",
        object_key="v1",
        params=[
            Param(name="charge", domain_type="string", required=True),
            Param(name="limit", domain_type="integer"),
        ],
    )
    found = extract_values("the refunds of charge ch_3MmlLrLkdIwHu7ix0snN0B15 of customer cus_123", MEDIA)
    assert {n: b.value for (_, n), b in bind(charges, found, {}).items()} == {"customer": "cus_123"}
    assert {n: b.value for (_, n), b in bind(refunds, found, {}).items()} == {
        "charge": "ch_3MmlLrLkdIwHu7ix0snN0B15"
    }
    # an id without a noun fills an input named ...id, nothing else
    plain = extract_values("show U01ABCDEF9", MEDIA)
    user = Api(key="GET /users", object_key="u", params=[Param(name="user_id", domain_type="string")])
    assert {n: b.value for (_, n), b in bind(user, plain, {}).items()} == {"user_id": "U01ABCDEF9"}
    assert bind(charges, plain, {}) == {}


def test_a_word_saying_now_reads_as_the_realtime_api_that_names_it() -> None:
    from apiatlas.planning.relevance import Relevance, request_words

    words = request_words("the current status of the service", [], MEDIA)
    assert [w.word for w in words] == ["current", "status", "service"]
    relevance = Relevance(words, [], {}, lambda stem: 1.0)
    realtime = Api(key="GET /status/realtime", object_key="status")
    later = Api(key="GET /status/forecast", object_key="status")
    # "current" is said by the real-time API's name, not by its sibling's: only "status" is
    assert relevance.strength(realtime) == {0: 1.0, 1: 1.0}
    assert relevance.strength(later) == {1: 1.0}
    # only of the thing asked: a real-time API naming no other word of the request gains nothing
    assert relevance.strength(Api(key="GET /realtime/quotes", object_key="quote")) == {}
    assert [w.word for w in words if w.qualifies] == ["current"]


def test_a_sentence_s_first_word_before_a_determiner_is_its_verb_not_a_name() -> None:
    """"Decode the secret …": any verb opens an imperative before its object's article, known or not; a
    title the request opens with stays one."""
    assert v.ENTITY not in kinds("Decode the database secret that deployment api uses")
    assert v.ENTITY not in kinds("Rotate all keys of the vault")
    assert kinds("Inception cast and crew")[v.ENTITY] == "Inception"


def quoted(text: str) -> set[str]:
    return {f.value for f in extract_values(text, MEDIA) if f.kind == v.ENTITY}


def test_a_quote_ends_at_its_own_pair_not_at_an_apostrophe_inside() -> None:
    assert quoted('post "PR\'ы готовы" in the channel dev') == {"PR'ы готовы"}
    assert quoted("напиши «don't panic» в канал") == {"don't panic"}
    assert quoted("rename it to 'release notes'") == {"release notes"}
