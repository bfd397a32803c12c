"""Chains read from the catalog's structure, not its vocabulary (issue 18, chains): a boolean option is
set by the request's word, never copied from another thing; the ``name`` a create's description says is the
new thing's takes the stated name; a verb said again ("re-send") and the things listed after one verb
("Create X, a Y for it, and a Z") split as their actions. Real compiles of small specs."""

from __future__ import annotations

import pytest

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Api, Param
from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.binding import Slot, accepts, bind, described_choices, slots
from apiatlas.planning.catalog_verbs import said_verbs
from apiatlas.planning.earlier_feeds import fed_from_earlier
from apiatlas.planning.kind_verbs import kind_verbs
from apiatlas.planning.model import InputSource, PlannedStep
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import said_names
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.snapshot import Snapshot
from test_plan_members import _of
from test_rest_loose_ids import compiled_spec

BOARD = (
    "{type: object, properties: {id: {type: string}, name: {type: string}, is_private: {type: boolean}}}"
)


def _form(path: str, summary: str, fields: list[tuple[str, str, str]], required: list[str], out: str) -> str:
    props = ", ".join(f"{n}: {{type: {t}, description: '{d}'}}" for n, t, d in fields)
    return f"""\
  {path}:
    post:
      summary: {summary}
      requestBody: {{content: {{application/x-www-form-urlencoded: {{schema: {{type: object,
        required: {required}, properties: {{{props}}}}}}}}}}}
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


def _get(path: str, summary: str, param: str, out: str) -> str:
    given = f"[{{name: {param}, in: query, required: true, schema: {{type: string}}}}]" if param else "[]"
    return f"""\
  {path}:
    get:
      summary: {summary}
      parameters: {given}
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


SPEC = "openapi: 3.0.0\ninfo: {title: Rooms, version: '1'}\npaths:\n" + "".join(
    [
        _get("/rooms.list", "Lists all boards", "", _of("boards", "{type: array, items: " + BOARD + "}")),
        _get("/rooms.info", "Retrieve a board", "board", _of("board", BOARD)),
        _form("/rooms.create", "Initiates a public or private board", [
            ("name", "string", "Name of the public or private board to create"),
            ("is_private", "boolean", "Create a private board instead of a public one"),
        ], [], "{type: object, properties: {board: " + BOARD + "}}"),
        _form("/admin.rooms.create", "Create a public or private board in a team", [
            ("name", "string", "Name of the board"),
            ("is_private", "boolean", "When true, the board is private"), ("team", "string", "The team"),
        ], ["name", "is_private", "team"], "{type: object, properties: {board_id: {type: string}}}"),
        _form("/rooms.archive", "Archives a board", [("board", "string", "ID of the board to archive")],
              ["board"], "{type: object, properties: {ok: {type: boolean}}}"),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "catalog_structure_rooms", SPEC)


def test_a_flag_is_set_by_the_request_not_read_from_another_thing(rooms: Snapshot) -> None:
    result = Planner(rooms, allow=None, confidence=None).plan("Create a private board called launch-2027")
    assert result.chains[0].api_keys == ["POST /rooms.create"]


def _actions(request: str) -> list[tuple[str, str]]:
    return [(a.text, a.verb) for a in split_actions(request, v.extract_values(request))]


def test_a_verb_said_again_is_the_verb() -> None:
    assert _actions("Add the note N1 to board B and re-send him his open invoice") == [
        ("Add the note N1 to board B", "add"),
        ("re-send him his open invoice", "send"),
    ]


def test_things_listed_after_one_verb_are_each_its_action() -> None:
    assert _actions("Create a product 'Pro', a price for it, and a link for that price") == [
        ("Create a product 'Pro'", "create"),
        ("create a price for it", "create"),
        ("create a link for that price", "create"),
    ]
    # a read's listed things stay one action; a comma before no "and <article>" splits nothing
    assert len(_actions("Show the members, the notes and the pins of board B")) == 1
    assert len(_actions("Delete the board B, the one I made yesterday")) == 1
    assert _actions("Archive the board B, the one with old notes, and the board C") == [
        ("Archive the board B, the one with old notes", "archive"),
        ("archive the board C", "archive"),
    ]


def test_a_quantity_between_a_verb_and_its_object_leaves_the_verb() -> None:
    refund = Api(key="POST /refunds", object_key="", params=[Param(name="payment", domain_type="string")])
    created = {"refund": ["POST /refunds"]}
    for said in ("Refund 25 EUR of payment P1", "Refund $10 of the payment P1", "Refund the payment P1"):
        assert kind_verbs(said, created, lambda k: refund, {"refund", "payment"}) == {"refund"}
        assert [a.verb for a in split_actions(said, [], lambda: frozenset({"refund"}))] == ["refund"]
    kinds = {"refund", "payment"}
    assert kind_verbs("Refund status of payment P1", created, lambda k: refund, kinds) == set()


QUOTE = "{type: object, properties: {id: {type: string}, status: {type: string}, invoice: {type: string}}}"
INVOICE = "{type: object, properties: {id: {type: string}, total: {type: integer}}}"
def _ID(name: str) -> str:
    return f"\n      parameters: [{{name: {name}, in: path, required: true, schema: {{type: string}}}}]"


PAYMENT = "{type: object, properties: {id: {type: string}, invoice: {type: string}}}"
BILLING = "openapi: 3.0.0\ninfo: {title: Billing, version: '1'}\npaths:\n" + "".join(
    [
        _form("/quotes/{quote}/accept", "Accept", [], [], QUOTE).replace("post:", "post:" + _ID("quote")),
        _get("/invoices", "List all invoices", "", _of("data", "{type: array, items: " + INVOICE + "}")),
        _get("/payments/latest", "The latest payment", "", PAYMENT),
        _get("/invoices/{invoice}", "Retrieve an invoice", "", INVOICE).replace(
            "      parameters: []\n", _ID("invoice")[1:] + "\n"
        ),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def billing(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """Compiled with one edge per input and level, as a large catalog's cap does: the latest payment
    (taking nothing) keeps the edge into ``invoice``, the accepted quote's ``invoice`` has none."""
    folder = tmp_path_factory.mktemp("catalog_structure_billing")
    (folder / "billing.yaml").write_text(BILLING, encoding="utf-8")
    (folder / "apiatlas.yaml").write_text("max_edges_per_consumer_field: 1\n", encoding="utf-8")
    out = folder / "billing.atlas"
    compile_docs(folder / "billing.yaml", overlays_dir=None, config_path=folder / "apiatlas.yaml", out=out,
                 write_report=False)  # fmt: skip
    return Snapshot.open(out)


def test_a_later_action_reads_the_id_an_earlier_step_returns_under_its_input_name(billing: Snapshot) -> None:
    plan = Planner(billing, allow=None, confidence=None).plan(
        "Accept quote qt_1PXyzAcme, then show me the invoice it generated"
    )
    assert plan.chains[0].api_keys == ["POST /quotes/{quote}/accept", "GET /invoices/{invoice}"]
    fed = plan.chains[0].steps[1].inputs[0]
    assert (fed.origin, fed.from_step, fed.from_field) == ("step", 0, "invoice")


TAX = "{type: object, properties: {id: {type: string}, value: {type: string}}}"
TAXES = "openapi: 3.0.0\ninfo: {title: Taxes, version: '1'}\npaths:\n" + "".join(
    [
        _form("/customers", "Create a customer", [("name", "string", "The name")], [], TAX),
        _get("/account", "Retrieve the account", "", TAX),
        _get("/balance", "Retrieve the balance", "", TAX),
        _get("/tax_ids", "List all tax ids", "", _of("data", "{type: array, items: " + TAX + "}")),
        _get("/tax_ids/{id}", "Retrieve a tax id", "", TAX).replace(
            "      parameters: []\n", _ID("id")[1:] + "\n"
        ),
    ]
)  # fmt: skip


def test_an_id_is_not_fed_by_an_earlier_thing_s_own_id(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``id`` is a kind here (``/tax_ids/{id}``) and the cap keeps no edge from the created customer's
    ``id``: the customer's id is no tax id, the input stays asked ("Create a customer Bob, then delete his
    tax id" once deleted the tax id numbered as the customer; "Retrieve payout P, then the balance
    transaction it made" read a treasury transaction by the payout's id)."""
    folder = tmp_path_factory.mktemp("catalog_structure_taxes")
    (folder / "taxes.yaml").write_text(TAXES, encoding="utf-8")
    (folder / "apiatlas.yaml").write_text("max_edges_per_consumer_field: 1\n", encoding="utf-8")
    out = folder / "taxes.atlas"
    compile_docs(folder / "taxes.yaml", overlays_dir=None, config_path=folder / "apiatlas.yaml", out=out,
                 write_report=False)  # fmt: skip
    cache = SnapshotCache(Snapshot.open(out))
    assert "id" in cache.vocabulary.kind_set
    assert "POST /customers" not in {e.producer for e in cache.snapshot.edges_into("GET /tax_ids/{id}")}
    asked = InputSource(name="id", origin="user", required=True)
    fed = fed_from_earlier(asked, "GET /tax_ids/{id}", [PlannedStep(api="POST /customers")], cache)
    assert fed.origin == "user"


def test_the_thing_a_procedure_sets_or_deletes_is_no_verb() -> None:
    """``setPhoto``/``deletePhoto``/``setTopic`` name a thing: "Show bob's name, photo and presence" is a read
    (it once ended at ``users.deletePhoto``), "the topic and purpose of C" no ``setTopic``."""
    keys = ["POST /users.setPhoto", "POST /users.deletePhoto", "POST /rooms.setTopic", "POST /dnd.endSnooze"]
    assert said_verbs(keys, {"user"}) == {"set", "delete", "end"}
    assert said_verbs(["POST /users.setUser"], {"user"}) == {"set"}


STATE = "{type: object, properties: {presence: {type: string}, online: {type: boolean}}}"
PRESENCE = "openapi: 3.0.0\ninfo: {title: Presence, version: '1'}\npaths:\n" + "".join(
    [
        _get("/users.getPresence", "Gets a user's presence", "", STATE),
        _form("/users.setPresence", "Manually sets user presence",
              [("presence", "string", "Either `auto` or `away`")], ["presence"], STATE),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def presence(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "catalog_structure_presence", PRESENCE)


def test_the_values_a_description_names_as_alternatives_are_a_closed_list(presence: Snapshot) -> None:
    assert described_choices("Either `auto` or `away`") == ("auto", "away")
    assert described_choices("One of `a`, `b`, or `c`.") == ("a", "b", "c")
    assert described_choices("Pass `true` to post as the user; see `chat:write`") == ()
    chain = Planner(presence, allow=None, confidence=None).plan("Set me as away").chains[0]
    assert chain.api_keys == ["POST /users.setPresence"]
    assert [(i.name, i.value) for i in chain.steps[0].inputs] == [("presence", "away")]
    # said where a name stands ("… to away": a name, no request word) it is the choice too
    api = SnapshotCache(presence).api("POST /users.setPresence")
    assert api is not None
    away = v.ExtractedValue(v.NAME, "away", "away")
    assert bind(api, [away], {}, ["set", "presence"])[(None, "presence")].value == "away"


def test_a_number_a_request_searches_for_is_the_search_text() -> None:
    search = Slot("query", None, "string", True, "string")
    numbered = v.ExtractedValue(v.DOC_NUMBER, "INC-4412", "INC-4412", hint="code:INC")
    assert accepts(numbered, search)
    assert not accepts(numbered, Slot("query", None, "string", False, "string"))  # an option: no
    assert not accepts(numbered, Slot("channel", None, "string", True, "string"))


_NONE = "      parameters: []\n"
HOOK = "{type: object, properties: {id: {type: string}, url: {type: string}, status: {type: string}}}"
HOOKS = "openapi: 3.0.0\ninfo: {title: Hooks, version: '1'}\npaths:\n" + "".join(
    [
        _get("/hooks", "List all hooks", "", _of("data", "{type: array, items: " + HOOK + "}")),
        _get("/hooks/{hook}", "Retrieve a hook", "", HOOK).replace(_NONE, _ID("hook")[1:] + "\n"),
        _get("/hooks/{hook}", "Delete a hook", "", HOOK).replace(_NONE, _ID("hook")[1:] + "\n")
        .replace("  /hooks/{hook}:\n    get:", "    delete:"),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "catalog_structure_hooks", HOOKS)


def test_a_web_address_picks_the_item_that_points_at_it(hooks: Snapshot) -> None:
    said = "Delete the hook that points at https://example.com/app/hooks."
    assert [(f.kind, f.value) for f in v.extract_values(said)] == [(v.URL, "https://example.com/app/hooks")]
    chain = Planner(hooks, allow=None, confidence=None).plan(said).chains[0]
    assert chain.api_keys == ["GET /hooks", "DELETE /hooks/{hook}"]
    fed = chain.steps[1].inputs[0]
    assert (fed.pick_field, fed.pick_value) == ("data[].url", "https://example.com/app/hooks")


def test_a_web_address_ends_before_its_marks_and_a_quoted_one_is_an_address() -> None:
    for said in ("Delete the hook at `https://x.com/h`.", 'Point it at "https://x.com/h"', "see “https://x.com/h”"):
        assert [f.value for f in v.extract_values(said) if f.kind == v.URL] == ["https://x.com/h"]
    for said, address in (("see (https://x.com/a).", "https://x.com/a"), ("at https://x.org/F_(b).", "https://x.org/F_(b)")):
        assert [f.value for f in v.extract_values(said) if f.kind == v.URL] == [address]


def test_a_web_address_fills_the_address_input_its_words_say() -> None:
    """"success url X" is no ``cancel_url``; "Post https://… in #general" sets no ``icon_url``."""
    ok, cancel = v.extract_values("with success url https://a.com/ok and cancel url https://a.com/no")
    slot = lambda name: Slot(name, None, "string", False, "string")  # noqa: E731
    assert accepts(ok, slot("success_url")) and not accepts(ok, slot("cancel_url"))
    assert accepts(cancel, slot("cancel_url")) and not accepts(cancel, slot("success_url"))
    (posted,) = v.extract_values("Post https://example.com/status in #general")
    assert accepts(posted, slot("url")) and not accepts(posted, slot("icon_url"))
    (back,) = v.extract_values("a portal session returning to https://a.com/account")
    assert accepts(back, slot("return_url"))


def test_a_word_inside_a_web_address_takes_no_name_said_outside_it(rooms: Snapshot) -> None:
    """"the board launch … https://example.com/launch/notes": launch is still the board's name (a word of a
    value found already is no name, but an address's words are not said as words)."""
    vocabulary = SnapshotCache(rooms).vocabulary
    said = "Archive the board launch, see https://example.com/launch/notes"
    names = said_names(said, vocabulary, v.extract_values(said, vocabulary), frozenset())
    assert [(f.value, f.hint) for f in names] == [("launch", "board")]


NOTES = "openapi: 3.0.0\ninfo: {title: Notes, version: '1'}\npaths:\n" + _form(
    "/notes.create",
    "Creates a note",
    [("text", "string", "The note. Either `text` or `blocks` is required"), ("blocks", "string", "Blocks")],
    ["text"],
    "{type: object, properties: {ok: {type: boolean}}}",
)


def test_code_marks_naming_the_api_s_inputs_are_no_values(tmp_path_factory: pytest.TempPathFactory) -> None:
    """"Either `text` or `blocks` is required" names inputs: "Create a note with blocks" passes no
    text "blocks"."""
    api = SnapshotCache(compiled_spec(tmp_path_factory, "catalog_structure_notes", NOTES)).api(
        "POST /notes.create"
    )
    assert api is not None
    assert [s.enum for s in slots(api) if s.name == "text"] == [()]
    assert (None, "text") not in bind(api, [], {}, ["create", "note", "blocks"])
