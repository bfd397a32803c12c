"""A verb that is also a noun ("tag") done to a thing the catalog holds it on (``PUT /posts/{post_id}/tags``)
is that write, not the create of a new such thing (``POST /tags``): ``kind_verbs.noun_creates`` narrows to
the creates only where no write puts the noun's things on an item. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.kind_verbs import noun_creates
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec

_OBJ = "{type: object, properties: {id: {type: string}, title: {type: string}}}"


def _op(method: str, summary: str, params: list[tuple[str, str]]) -> str:
    given = ", ".join(
        f"{{name: {n}, in: {at}, required: true, schema: {{type: string}}}}" for n, at in params
    )
    return f"""\
    {method}:
      summary: {summary}
      parameters: [{given}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {_OBJ}}}}}}}}}
"""


SPEC = (
    "openapi: 3.0.0\ninfo: {title: Blog, version: '1'}\npaths:\n"
    + "  /posts:\n" + _op("get", "List posts", []) + _op("post", "Create a post", [("title", "query")])
    + "  /posts/{post_id}:\n" + _op("get", "Get a post", [("post_id", "path")])
    + "  /tags:\n" + _op("post", "Create a tag", [("name", "query")])
    + "  /posts/{post_id}/tags:\n" + _op("put", "Tag a post", [("post_id", "path"), ("tag", "query")])
)  # fmt: skip


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "blog_tags", SPEC)


def test_a_verb_done_to_a_thing_is_the_write_putting_it_there(snap: Snapshot) -> None:
    chain = Planner(snap).plan("Tag the post p-1 with tag news").chains[0]
    assert chain.api_keys[-1] == "PUT /posts/{post_id}/tags"


def test_the_creates_are_kept_alone_only_where_no_write_puts_the_thing_on_an_item() -> None:
    hits = ["POST /tags", "PUT /posts/{post_id}/tags"]
    assert noun_creates(hits, "tag") == hits
    reminders = ["POST /reminders.delete", "POST /reminders.add"]
    assert noun_creates(reminders, "remind") == ["POST /reminders.add"]
