"""Kinds of things: a deal number's prefix names the deal's kind; what is asked about, the target's."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    Edge,
    EdgeLevel,
    Param,
    SessionTable,
)
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v
from apiatlas.planning.draft import code_fit
from apiatlas.planning.intent import (
    asked_kind,
    asks_who,
    counted,
    named_kinds,
    own_kind,
    sub_resource,
    takes_one_of,
)
from apiatlas.planning.planner import PlanLimits, Planner
from apiatlas.planning.said_names import bare_names, said_names
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get, media_vocabulary, with_vocabulary

MEDIA = media_vocabulary()  # the movie database's words (examples/restbench/apiatlas.yaml)


def _lookup(key: str, object_key: str, title: str) -> Api:
    return Api(
        key=key, object_key=object_key, title=title,
        params=[Param(name="DealNumber", domain_type="DSDEALNUMBER", required=True)],
        output_tables=[SessionTable(name=f"{key}_Info", direction=Direction.OUT, columns=[
            Column(name="DealID", domain_type="DSIDENTIFIER"), Column(name="Amount", domain_type="DSMONEY"),
        ])],
    )  # fmt: skip


LOOKUPS = [
    _lookup("API_DRepo_FindByNumber", "DRepo", "Find a deal by its number"),
    _lookup("API_DealSecurity_FindByNumber", "DSec", "Find a deal by its number"),
    _lookup("API_DFx_FindByNumber", "DFx", "Find a deal by its number"),
]


def test_a_number_with_a_letter_prefix_carries_it_as_a_hint() -> None:
    [deal] = extract = v.extract_values("история сделки DS-20251205-00003")
    assert (deal.kind, deal.hint) == (v.DOC_NUMBER, v.CODE_HINT + "DS"), extract
    [plain] = v.extract_values("филиал № 125")
    assert (plain.kind, plain.hint) == (v.DOC_NUMBER, "")


@pytest.mark.parametrize(
    ("prefix", "fits"),
    [
        ("DS", "API_DealSecurity_FindByNumber"),
        ("DR", "API_DRepo_FindByNumber"),
        ("FX", "API_DFx_FindByNumber"),
    ],
)
def test_the_prefix_abbreviates_the_object_or_the_name_of_one_lookup(prefix: str, fits: str) -> None:
    scores = {api.key: code_fit(prefix, api) for api in LOOKUPS}
    assert scores[fits] == 1.0
    assert all(score < 0 for key, score in scores.items() if key != fits)


@pytest.fixture(scope="module")
def deals(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    catalog = catalog_of(list(LOOKUPS))
    path = tmp_path_factory.mktemp("deals") / "deals.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


@pytest.mark.parametrize(
    ("number", "entry"),
    [("DS-20251124-00011", "API_DealSecurity_FindByNumber"), ("FX-20251124-00002", "API_DFx_FindByNumber")],
)
def test_the_deal_kind_the_prefix_names_is_looked_up(deals: Snapshot, number: str, entry: str) -> None:
    result = Planner(deals).plan(f"deal {number}")
    assert result.chains[0].entry_point == entry
    assert result.chains[0].steps[0].inputs[0].value == number


def test_the_kind_asked_about_is_the_first_thing_named_outside_the_values() -> None:
    assert asked_kind("When is the birthday of the lead actor of Heat?", ["Heat"], MEDIA) == "person"
    assert asked_kind("What is the homepage of the network that produced Lost?", ["Lost"], MEDIA) == "network"
    assert asked_kind("the number of movies directed by Sofia Coppola", ["Sofia Coppola"], MEDIA) == "movie"
    assert asked_kind("Who is the lead actor of Heat?", ["Heat"], MEDIA) == ""  # the name is the answer
    assert asked_kind("сделки клиента Михалова", ["Михалова"], MEDIA) == ""


def test_a_kind_named_in_two_or_three_words_is_read_as_one() -> None:
    vocabulary = CatalogVocabulary(
        kinds=["deployment", "replicaset", "volume", "persistentvolumeclaim"],
        kind_words={"replicasets": "replicaset", "volumes": "volume"},
    )
    assert asked_kind("Show the replica sets of deployment web", ["web"], vocabulary) == "replicaset"
    assert asked_kind("the persistent volume claim of pod x", ["x"], vocabulary) == "persistentvolumeclaim"
    assert asked_kind("the volumes of deployment web", ["web"], vocabulary) == "volume"
    assert asked_kind("the deployment of replica set web", ["web"], vocabulary) == "deployment"


def test_the_kinds_an_action_acts_on_are_named_not_where_it_acts() -> None:
    vocabulary = CatalogVocabulary(
        kinds=["namespace", "resourcequota", "persistentvolume", "limitrange"],
        kind_words={"namespaces": "namespace"},
    )
    said = named_kinds("limit it to 8 CPUs with a resource quota", [], vocabulary)
    assert said == {"resourcequota"}  # in two words; "limit" names no limit range
    assert named_kinds("Delete the claim x in namespace db and the persistent volume", ["x"], vocabulary) == {
        "persistentvolume"
    }  # "in namespace db" is where, not what
    assert named_kinds("create the namespace staging", ["staging"], vocabulary) == {"namespace"}
    parts = CatalogVocabulary(kinds=["persistentvolumeclaim", "volume", "claim"])
    said = named_kinds("delete the persistent volume claim x", ["x"], parts)
    assert said == {"persistentvolumeclaim"}  # the parts of a kind said in three words name nothing more


def test_an_api_returns_the_last_kind_its_key_names() -> None:
    def kind(key: str) -> str:
        return own_kind(Api(key=key, object_key=""), MEDIA)

    assert kind("GET /person/{person_id}/images") == "person"
    assert kind("GET /person/{person_id}/movie_credits") == "movie"
    assert kind("GET /movie/{movie_id}/credits") == "movie"
    assert kind("GET /lists/{list_id}/companies") == "company"  # a plural path names its kind too
    assert (kind("GET /search/person"), kind("API_Acc_GetRest")) == ("", "")


def _get(key: str, param: str, ptype: str, table: str, *columns: str) -> Api:
    return http_get(key, param, table, *columns, ptype=ptype)


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """Find a film, its cast, a person's card: the person is one step past the cast."""
    apis = [
        _get("GET /search/movie", "query", "string", "results", "results[].id", "results[].title"),
        _get("GET /movie/{movie_id}/credits", "movie_id", "integer", "credits",
             "cast[].id", "cast[].name", "cast[].character", "cast[].profile_path"),
        _get("GET /person/{person_id}", "person_id", "integer", "person",
             "id", "name", "birthday", "place_of_birth", "biography"),
        _get("GET /movie/{movie_id}", "movie_id", "integer", "movie", "id", "title", "genres[].name"),
        _get("GET /movie/{movie_id}/similar", "movie_id", "integer", "similar",
             "results[].id", "results[].title", "results[].genres[].name", "results[].genre_ids"),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        Edge(producer="GET /search/movie", producer_table="results", producer_field="results[].id",
             consumer="GET /movie/{movie_id}/credits", consumer_field="movie_id", domain_type="integer",
             level=EdgeLevel.ALIAS, reason="test"),
        Edge(producer="GET /movie/{movie_id}/credits", producer_table="credits", producer_field="cast[].id",
             consumer="GET /person/{person_id}", consumer_field="person_id", domain_type="integer",
             level=EdgeLevel.ALIAS, reason="test"),
        *[Edge(producer="GET /search/movie", producer_table="results", producer_field="results[].id",
               consumer=key, consumer_field="movie_id", domain_type="integer", level=EdgeLevel.ALIAS,
               reason="test") for key in ("GET /movie/{movie_id}", "GET /movie/{movie_id}/similar")],
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("films") / "films.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_something_asked_about_a_person_ends_at_the_person(films: Snapshot) -> None:
    planner = Planner(films)
    asked = planner.plan("When is the birthday of the lead actor of the movie Heat?").chains[0]
    assert asked.api_keys == ["GET /search/movie", "GET /movie/{movie_id}/credits", "GET /person/{person_id}"]
    who = planner.plan("Who is the lead actor of the movie Heat?").chains[0]
    assert who.api_keys == ["GET /search/movie", "GET /movie/{movie_id}/credits"]


def test_two_names_side_by_side_are_both_looked_up(films: Snapshot) -> None:
    planner = Planner(films)
    both = planner.plan("the cast of the movie Heat versus the movie Ronin").chains[0]
    searches = [s for s in both.steps if s.api == "GET /search/movie"]
    assert sorted(str(s.inputs[0].value) for s in searches) == ["Heat", "Ronin"]
    assert both.api_keys[-1] == "GET /movie/{movie_id}/credits"
    assert all(i.from_step == 1 for i in both.steps[2].inputs if i.origin == "step")
    one = planner.plan("the cast of the movie Heat, filmed in Los Angeles").chains[0]
    assert [s.api for s in one.steps].count("GET /search/movie") == 1


def test_a_path_part_the_request_does_not_name_is_not_the_answer(films: Snapshot) -> None:
    def tail(key: str) -> set[str]:
        return sub_resource(Api(key=key, object_key=""))

    assert (tail("GET /movie/{movie_id}/similar"), tail("GET /movie/{movie_id}")) == ({"similar"}, set())
    assert tail("GET /movie/popular") == set()
    genre = Planner(films).plan("What is the genre of the movie Heat?").chains[0]
    assert genre.api_keys == ["GET /search/movie", "GET /movie/{movie_id}"]
    similar = Planner(films).plan("movies similar to the movie Heat").chains[0]
    assert similar.api_keys == ["GET /search/movie", "GET /movie/{movie_id}/similar"]


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """Movie and TV searches of the same shape, each feeding its reviews."""
    catalog = Catalog(source_kind="test")
    for kind in ("movie", "tv"):
        search = _get(f"GET /search/{kind}", "query", "string", "results", "results[].id", "results[].name")
        reviews = _get(f"GET /{kind}/{{{kind}_id}}/reviews", f"{kind}_id", "integer", "reviews",
                       "results[].author", "results[].content")  # fmt: skip
        for api in (search, reviews):
            catalog.apis[api.key] = api
            owner = catalog.objects.setdefault(api.object_key, BusinessObject(key=api.object_key))
            owner.api_keys.append(api.key)
        catalog.edges.append(
            Edge(
                producer=search.key,
                producer_table="results",
                producer_field="results[].id",
                consumer=reviews.key,
                consumer_field=f"{kind}_id",
                domain_type="integer",
                level=EdgeLevel.ALIAS,
                reason="test",
            )
        )
    path = tmp_path_factory.mktemp("media") / "media.apiatlas"
    write_snapshot(with_vocabulary(catalog), path, options={"source": "test"})
    return Snapshot.open(path)


def test_a_name_of_unknown_kind_says_the_other_reading(media: Snapshot) -> None:
    planner = Planner(media)
    unsure = planner.plan("I need a review for Breaking Bad")
    entries = {c.entry_point for c in unsure.chains[:2]}
    assert entries == {"GET /search/movie", "GET /search/tv"}
    assert "does not say what 'Breaking Bad' is" in unsure.message
    assert unsure.chains[1].entry_point in unsure.chains[0].why[-1]
    said = planner.plan("I need a review for the TV show Breaking Bad")
    assert said.chains[0].entry_point == "GET /search/tv"
    assert "does not say" not in said.message


def test_asking_whose_a_thing_is_asks_about_a_person() -> None:
    number = "40817810600012000023"
    assert asked_kind(f"кому принадлежит счёт {number} — ФИО и телефон", [number], MEDIA) == "person"
    assert asked_kind("whose deal is DS-20251023-00001", ["DS-20251023-00001"], MEDIA) == "person"
    # the owner's address is asked about, not the owner
    assert asked_kind(f"почтовый адрес владельца счёта {number}", [number], MEDIA) == ""


def test_an_api_whose_output_describes_a_person_returns_a_person() -> None:
    def api(*columns: str) -> Api:
        table = SessionTable(name="t", direction=Direction.OUT, columns=[Column(name=c) for c in columns])
        return Api(key="API_Prs_FindByID", object_key="Prs", output_tables=[table])

    assert own_kind(api("PersonID", "SurName", "FirstName", "BirthDate"), MEDIA) == "person"
    assert own_kind(api("PersonID", "DocType", "DocNumber"), MEDIA) == ""  # a person's documents


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """The newest movie (no input) beside a person search feeding the person's movie credits."""
    latest = Api(
        key="GET /movie/latest", object_key="movie", title="Get Latest",
        output_tables=[SessionTable(name="movie", direction=Direction.OUT, columns=[
            Column(name="id", domain_type="integer"), Column(name="title"), Column(name="release_date"),
        ])],
    )  # fmt: skip
    search = _get("GET /search/person", "query", "string", "results", "results[].id", "results[].name")
    credits = _get("GET /person/{person_id}/movie_credits", "person_id", "integer", "credits",
                   "cast[].id", "cast[].title", "cast[].release_date")  # fmt: skip
    catalog = catalog_of([latest, search, credits])
    catalog.edges = [
        Edge(producer=search.key, producer_table="results", producer_field="results[].id",
             consumer=credits.key, consumer_field="person_id", domain_type="integer",
             level=EdgeLevel.ALIAS, reason="test"),
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("people") / "people.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_a_chain_that_leaves_the_named_subject_unused_answers_something_else(people: Snapshot) -> None:
    planner = Planner(people)
    plan = planner.plan("Tell me about Katherine LaNasa's latest movie appearance.")
    assert plan.chains[0].api_keys == ["GET /search/person", "GET /person/{person_id}/movie_credits"]
    # with no name stated, the newest movie is the answer
    assert planner.plan("Tell me about the latest movie.").chains[0].api_keys == ["GET /movie/latest"]


def test_a_name_goes_to_the_input_of_the_api_it_is_said_to_be_about() -> None:
    from apiatlas.planning.binding import bind

    found = v.extract_values("the director of film Barbie or the lead actor of television DEATH NOTE", MEDIA)
    search = _get("GET /search/tv", "query", "string", "results", "results[].id")
    assert [b.value for b in bind(search, found, {}, None, MEDIA.kind_set).values()] == ["DEATH NOTE"]
    movies = _get("GET /search/movie", "query", "string", "results", "results[].id")
    assert [b.value for b in bind(movies, found, {}, None, MEDIA.kind_set).values()] == ["Barbie"]


def test_the_same_asked_of_two_names_of_different_kinds_is_two_chains_in_one(media: Snapshot) -> None:
    plan = Planner(media).plan("reviews of the film Heat or the TV show Fargo")
    best = plan.chains[0]
    assert best.api_keys == [
        "GET /search/movie", "GET /movie/{movie_id}/reviews", "GET /search/tv", "GET /tv/{tv_id}/reviews",
    ]  # fmt: skip
    assert [str(i.value) for s in (best.steps[0], best.steps[2]) for i in s.inputs] == ["Heat", "Fargo"]
    assert [i.from_step for i in best.steps[3].inputs] == [2]
    assert best.steps[3].on_many == "first"  # the best match of the TV search, as for the first name
    # one name: one chain
    assert Planner(media).plan("reviews of the film Heat").chains[0].api_keys == [
        "GET /search/movie", "GET /movie/{movie_id}/reviews",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def coworkers(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """A person's movies, a movie's cast, a person's card: a cast lists people, a filmography movies."""
    apis = [
        _get("GET /search/person", "query", "string", "results", "results[].id", "results[].name"),
        _get("GET /person/{person_id}/movie_credits", "person_id", "integer", "credits",
             "cast[].id", "cast[].title"),
        _get("GET /movie/{movie_id}/credits", "movie_id", "integer", "credits",
             "cast[].id", "cast[].name", "cast[].character"),
        _get("GET /person/{person_id}", "person_id", "integer", "person", "id", "name", "birthday"),
    ]  # fmt: skip
    links = [
        ("GET /search/person", "results", "results[].id", "GET /person/{person_id}/movie_credits",
         "person_id"),
        ("GET /search/person", "results", "results[].id", "GET /person/{person_id}", "person_id"),
        ("GET /person/{person_id}/movie_credits", "credits", "cast[].id", "GET /movie/{movie_id}/credits",
         "movie_id"),
        ("GET /movie/{movie_id}/credits", "credits", "cast[].id", "GET /person/{person_id}", "person_id"),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        Edge(producer=p, producer_table=t, producer_field=f, consumer=c, consumer_field=n,
             domain_type="integer", level=EdgeLevel.ALIAS, reason="test")
        for p, t, f, c, n in links
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("coworkers") / "coworkers.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_asking_who_ends_at_an_api_listing_people(coworkers: Snapshot) -> None:
    assert asks_who("Who directed Heat?") and asks_who("кто эмитент бумаги")
    assert not asks_who("Who is older, Meryl Streep or Tom Hanks?")  # one of the offered names
    assert not asks_who("the cast of Heat")
    planner = Planner(coworkers)
    assert planner.cache.listed_kinds("GET /movie/{movie_id}/credits") == {"person"}
    assert planner.cache.listed_kinds("GET /person/{person_id}/movie_credits") == {"movie"}
    who = planner.plan("Who has worked with Jeremy Clarkson in his movies?").chains[0]
    assert who.api_keys == [
        "GET /search/person", "GET /person/{person_id}/movie_credits", "GET /movie/{movie_id}/credits",
    ]  # fmt: skip
    what = planner.plan("What movies has Jeremy Clarkson worked in?").chains[0]
    assert what.api_keys == ["GET /search/person", "GET /person/{person_id}/movie_credits"]


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """A show's details (how many seasons it has) beside one season's details (by its number)."""
    search = _get("GET /search/tv", "query", "string", "results", "results[].id", "results[].name")
    show = _get("GET /tv/{tv_id}", "tv_id", "integer", "tv", "id", "name", "number_of_seasons",
                "seasons[].season_number")  # fmt: skip
    season = _get("GET /tv/{tv_id}/season/{season_number}", "tv_id", "integer", "season",
                  "id", "season_number", "episodes[].name")  # fmt: skip
    season.params.append(Param(name="season_number", domain_type="integer", required=True))
    catalog = catalog_of([search, show, season])
    catalog.edges = [
        Edge(producer=search.key, producer_table="results", producer_field="results[].id", consumer=key,
             consumer_field="tv_id", domain_type="integer", level=EdgeLevel.ALIAS, reason="test")
        for key in (show.key, season.key)
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("seasons") / "seasons.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_counting_things_is_not_asking_about_one_of_them(seasons: Snapshot) -> None:
    assert counted("How many seasons of Sword Art Online are there?", ["Sword Art Online"]) == {"season"}
    assert counted("сколько денег было у Лазаревой", ["Лазаревой"]) == {"денег"}
    assert counted("the seasons of Fargo", ["Fargo"]) == frozenset()
    one = seasons.get_api("GET /tv/{tv_id}/season/{season_number}")
    assert one is not None and takes_one_of(one, frozenset({"season"}))
    planner = Planner(seasons, limits=PlanLimits(targets=1))  # the target ranking decides
    many = planner.plan("How many seasons of the TV show Fargo are there?").chains[0]
    assert many.api_keys == ["GET /search/tv", "GET /tv/{tv_id}"]
    second = planner.plan("the episodes of the second season of the TV show Fargo").chains[0]
    assert second.api_keys == ["GET /search/tv", "GET /tv/{tv_id}/season/{season_number}"]


def test_a_name_follows_a_kind_said_in_another_script() -> None:
    vocabulary = CatalogVocabulary(kinds=["channel", "user"], named_inputs=["channel"])
    across = {"кана": "channel", "сообщен": "messag"}  # what the search's CrossScript reads them as
    found = said_names("покажи сообщения канала general", vocabulary, [], frozenset(), across)
    assert [(f.value, f.hint) for f in found] == [("general", "channel")]
    assert said_names("покажи сообщения канала general", vocabulary, [], frozenset()) == []


def test_a_name_is_the_object_of_the_write_verb_opening_the_request() -> None:
    vocabulary = CatalogVocabulary(kinds=["channel"], named_inputs=["channel"])
    found = bare_names("Mark general as read up to its newest message", vocabulary, [], frozenset())
    assert [(f.value, f.hint) for f in found] == [("general", "")]  # its kind unknown: picked by name only
    assert bare_names("Show general as read", vocabulary, [], frozenset()) == []  # no write ordered


def test_a_preposition_after_a_kind_is_no_name() -> None:
    vocabulary = CatalogVocabulary(kinds=["volume"], named_inputs=["volume"])
    assert said_names("show the volume behind it", vocabulary, [], frozenset()) == []
    assert [f.value for f in said_names("show the volume v-1", vocabulary, [], frozenset())] == ["v-1"]
