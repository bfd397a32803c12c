"""A name said beside the noun its input is named for ("the india subreddit", "the channel releases")
fills that input: the plan asks nothing. A word the catalog uses for its things is never such a name."""

from __future__ import annotations

from pathlib import Path

from apiatlas.planning.binding import Slot, named_beside
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get


def _slot(name: str, **kw: object) -> Slot:
    return Slot(name, None, "string", bool(kw.get("required", True)), str(kw.get("json_type", "string")),
                tuple(kw.get("enum", ())))  # type: ignore[arg-type]  # fmt: skip


def test_the_word_after_the_noun_else_the_one_before() -> None:
    assert named_beside(_slot("subreddit"), "Top posts from the india subreddit in the past week") == "india"
    assert named_beside(_slot("channel"), "Post 'hi' in the channel releases") == "releases"
    assert named_beside(_slot("namespace"), "Show the pods in namespace shop") == "shop"
    assert (
        named_beside(_slot("channel"), "Archive the channel and tell its members") is None
    )  # "and", "archive"
    assert named_beside(_slot("channel", required=False), "in the channel releases") is None
    assert named_beside(_slot("name"), "the name Alice") is None  # too generic a noun
    assert named_beside(_slot("channel", enum=("a", "b")), "the channel releases") is None  # a closed list
    assert named_beside(_slot("channel"), "the channel messages", frozenset({"message"})) is None  # a kind


def test_a_plan_takes_the_name_said_beside_its_input(tmp_path: Path) -> None:
    apis = [
        http_get("GET /subreddits/{subreddit}/top", "subreddit", "out", "posts[].title", "posts[].score",
                 title="Top posts of a subreddit"),
        http_get("GET /users/{username}/posts", "username", "out", "posts[].title", title="Posts of a user"),
    ]  # fmt: skip
    path = tmp_path / "forum.atlas"
    write_snapshot(catalog_of(apis), path, options={"source": "test"})
    with Snapshot.open(path) as snap:
        plan = Planner(snap, allow=reads_only).plan("Show the top posts of the india subreddit")
    best = plan.chains[0]
    assert best.api_keys == ["GET /subreddits/{subreddit}/top"] and best.missing == []
    assert best.chain_steps({})[0].args == {"subreddit": "india"}
