"""HTTP operations are searchable by what they do (list, retrieve, create, update, delete), and a word
most cards mention still counts for the API it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.catalog.actions import http_action, procedure_action, requested_actions
from apiatlas.catalog.model import Api, ExecutorBinding, Param
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search.cards import card_text
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot


def op(key: str, title: str, body: str = "") -> Api:
    path = key.split(" ", 1)[1]
    return Api(
        key=key,
        object_key=path.strip("/").split("/")[0],
        title=title,
        description=body,
        params=[Param(name="customer", description="The customer's ID.")],
        executor=ExecutorBinding(kind="http", target=key),
    )


@pytest.mark.parametrize(
    ("key", "action"),
    [
        ("GET /v1/customers", "list"),
        ("GET /v1/customers/{customer}", "retrieve"),
        ("GET /v1/balance", "retrieve"),
        ("POST /v1/customers", "create"),
        ("POST /v1/customers/{customer}", "update"),
        ("POST /v1/invoices/{invoice}/finalize", ""),  # the path names its own action
        ("GET /conversations.list", ""),  # an RPC method: so does its name
        ("PUT /pets/{id}", "replace"),
        ("PATCH /pets/{id}", "update"),
        ("DELETE /v1/customers/{customer}", "delete"),
        ("GET /movie/{movie_id}/credits?language=en", "list"),
        ("GET /v1/tax/settings", "retrieve"),  # one thing, though it ends in "s"
        ("POST /v1/tax/settings", ""),  # updates it: not a create
        ("GET /api/v1/nodes/{name}/status", "retrieve"),
        ("GET /v1/checkout/sessions/{session}/line_items", "list"),
    ],
)
def test_the_action_of_an_http_operation_comes_from_its_method_and_path(key: str, action: str) -> None:
    assert http_action(op(key, "t")) == action


@pytest.mark.parametrize(
    ("request_text", "actions"),
    [
        ("fetch all my customers", {"retrieve": "fetch"}),
        ("show all my customers", {}),  # "show": list or retrieve? the words alone don't say
        ("can you please remove the coupon", {"delete": "remove"}),
        ("I want to add a card and then change its name", {"create": "add", "update": "change"}),
        ("list the invoices", {"list": "list"}),  # says its action itself
        ("закрой счёт клиента", {"close": "закрой"}),
        ("можно ли закрыть счёт", {}),  # a question about closing, not an order to close
        ("When was the TV show created?", {}),  # a noun and a participle: no action
        ("получи счета клиента", {"retrieve": "получи"}),
        ("сними блокировку со счёта", {"unlock": "сними"}),  # a verb with its noun: «снятие блокировки»
        ("сними деньги со счёта", {}),  # the verb alone: a withdrawal, no action of the list
        ("please lift the freeze on my card", {"unlock": "lift"}),
        ("remove the block on the card", {"unlock": "remove"}),  # not a delete
        ("наложи запрет на счёт", {"lock": "наложи"}),
    ],
)
def test_the_words_a_request_says_an_action_with(request_text: str, actions: dict[str, str]) -> None:
    assert requested_actions(request_text.replace("?", "").split()) == actions


def test_an_api_that_is_not_an_http_operation_has_no_action() -> None:
    proc = Api(key="API_Acc_GetRest", object_key="Acc", title="Остаток")
    assert http_action(proc) == ""
    assert card_text(proc).startswith("Acc Get Rest")


def test_the_card_says_the_action_instead_of_the_method() -> None:
    assert card_text(op("GET /v1/customers", "Returns a list of your customers")).startswith(
        "list v 1 customers. Returns a list of your customers"
    )
    assert card_text(op("POST /v1/invoices/{invoice}/finalize", "Finalize")).startswith("POST v 1 invoices")


STRIPE_LIKE = [
    op("GET /customers", "Returns a list of your customers", "Sorted by creation date."),
    op("POST /customers", "Creates a new customer object", "Creates a customer."),
    op("GET /customers/{customer}", "Retrieves a Customer object", "The customer's details."),
    op("POST /customers/{customer}", "Updates the specified customer", "Changes the customer."),
    op("DELETE /customers/{customer}", "Permanently deletes a customer", "Also cancels subscriptions."),
    op("GET /invoices", "Returns a list of invoices", "Invoices of a customer, newest first."),
    op("POST /invoices", "Creates a draft invoice", "A draft invoice for a customer."),
    op("GET /charges", "Returns a list of charges", "Charges of a customer, newest first."),
    op(
        "POST /terminal/readers/{reader}/set_reader_display",
        "Sets reader display to show cart details",
        "The customer sees the cart.",
    ),
]


@pytest.fixture(scope="module")
def stripe_like(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from plan_catalogs import catalog_of

    path = tmp_path_factory.mktemp("actions") / "stripe-like.atlas"
    index = SearchIndexing(None, cache=None)
    index_and_write(catalog_of(STRIPE_LIKE), path, options={"source": "test"}, index=index)
    return path


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("list all my customers", "GET /customers"),  # "customer" is in every card
        ("create a customer", "POST /customers"),
        ("update a customer", "POST /customers/{customer}"),
        ("list the invoices", "GET /invoices"),
        ("create an invoice", "POST /invoices"),
    ],
)
def test_words_alone_find_the_operation_that_does_what_the_request_asks(
    stripe_like: Path, query: str, first: str
) -> None:
    with Snapshot.open(stripe_like) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(query, mode=SearchMode.LEXICAL)
    assert found.ranked[0].api_key == first, [h.api_key for h in found.ranked[:3]]


TERSE = [  # titles that do not say what the operation does, as many specs write them
    op("GET /customers", "Customers"),
    op("POST /customers", "Customers"),
    op("GET /customers/{customer}", "Customer"),
    op("POST /customers/{customer}", "Customer"),
    op("DELETE /customers/{customer}", "Customer"),
]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("list customers", "GET /customers"),
        ("create a customer", "POST /customers"),
        ("retrieve a customer", "GET /customers/{customer}"),
        ("update a customer", "POST /customers/{customer}"),
        ("delete a customer", "DELETE /customers/{customer}"),
    ],
)
def test_the_action_tells_apart_operations_on_one_resource(tmp_path: Path, query: str, first: str) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "terse.atlas"
    index_and_write(
        catalog_of(TERSE), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(query, mode=SearchMode.LEXICAL)
    assert found.ranked[0].api_key == first, [h.api_key for h in found.ranked[:3]]


@pytest.mark.parametrize(
    ("key", "object_key", "action"),
    [
        ("API_Acc_Close", "Acc", "close"),
        ("API_Pmt_Add", "Pmt", "create"),
        ("API_Addr_Upd", "Addr", "update"),
        ("API_Card_Unlock", "Card", "unlock"),
        ("usp_Customer_Insert", "", "create"),
        ("API_Acc_FindByID", "Acc", ""),  # a read
        ("API_Acc_CheckCanClose", "Acc", ""),  # a read about closing: its first verb is "check"
        ("API_Lock_Add", "Lock", "create"),  # the object's name is no verb of its own
        ("GET /v1/customers", "", ""),  # an HTTP operation's action comes from its method
    ],
)
def test_a_procedure_does_the_first_verb_of_its_name(key: str, object_key: str, action: str) -> None:
    assert procedure_action(key, object_key) == action


WORDY_LIST = [  # the list says the request's words more often than the operation the request orders
    op(
        "GET /checkout/sessions",
        "List the Checkout Sessions created in checkout",
        "Checkout sessions of the checkout, newest first.",
    ),
    op("POST /checkout/sessions", "New session", ""),
]


@pytest.mark.parametrize(  # 1.0, no demotion: the family's order (``search.families``) puts the create first
    ("factor", "first"), [(1.0, "POST /checkout/sessions"), (0.9, "POST /checkout/sessions")]
)
def test_an_operation_doing_another_kind_of_thing_than_ordered_is_demoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factor: float, first: str
) -> None:
    import apiatlas.search.hybrid as hybrid
    from plan_catalogs import catalog_of

    assert hybrid.ACTION_MISMATCH == 0.9  # the shipped factor; 1.0 shows what it changes
    monkeypatch.setattr(hybrid, "ACTION_MISMATCH", factor)
    path = tmp_path / "wordy.atlas"
    index_and_write(
        catalog_of(WORDY_LIST), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        found = search.search("create a checkout session", mode=SearchMode.LEXICAL)
        assert found.ranked[0].api_key == first, [(h.api_key, h.score) for h in found.ranked]
        # the demotion alone (the planner's reading, ``word_forms``, has no family order): the list first
        # without it, the create with it
        alone = search.search("create a checkout session", mode=SearchMode.LEXICAL, word_forms=True)
        expected = "GET /checkout/sessions" if factor == 1.0 else "POST /checkout/sessions"
        assert alone.ranked[0].api_key == expected, [(h.api_key, h.score) for h in alone.ranked]
        # a read is a read: "get all sessions" does not demote the list in favour of nothing
        assert search.search("get all checkout sessions", mode=SearchMode.LEXICAL).ranked[0].api_key == (
            "GET /checkout/sessions"
        )


ROLES = [  # the writes and the item say the request's words more often than the list it asks for
    op("POST /roles", "Create roles", "Create roles in a namespace; roles of a namespace."),
    op("GET /roles/{name}", "Read roles", "Read one of the roles of a namespace."),
    op("GET /roles", "List roles", "Roles of a namespace."),
    op("GET /ingress-classes", "List ingress classes", "Of the cluster."),
    op("GET /ingress-classes/{name}", "Read an ingress class", "One ingress class by name."),
]


@pytest.mark.parametrize(
    ("factor", "firsts"),
    [
        (1.0, ["POST /roles", "GET /ingress-classes/{name}", "POST /roles"]),
        (0.9, ["GET /roles", "GET /ingress-classes", "POST /roles"]),
    ],
)
def test_a_request_that_orders_no_change_reads_and_a_plural_names_the_collection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factor: float, firsts: list[str]
) -> None:
    import apiatlas.search.hybrid as hybrid
    from plan_catalogs import catalog_of

    monkeypatch.setattr(hybrid, "ACTION_MISMATCH", factor)
    path = tmp_path / "roles.atlas"
    index_and_write(
        catalog_of(ROLES), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        queries = ["roles in namespace dev", "which ingress classes exist?", "create roles in namespace dev"]
        found = [search.search(q, mode=SearchMode.LEXICAL).ranked[0].api_key for q in queries]
    assert found == firsts


@pytest.mark.parametrize(
    ("said", "resources", "named"),
    [
        ("delete namespace tmp-42", {"namespaces", "podtemplates"}, {"namespaces"}),
        (
            "persistent volume claims in namespace db",
            {"persistentvolumes", "persistentvolumeclaims", "namespaces"},
            {"persistentvolumeclaims", "namespaces"},
        ),
        ("which ingress classes exist?", {"ingressclasses", "ingresses"}, {"ingressclasses"}),
        ("show the logs of pod web-1", {"log", "pods"}, {"log", "pods"}),
        ("post a message", {"chat.postmessage"}, set()),
    ],
)
def test_a_request_names_the_resources_its_words_spell(
    said: str, resources: set[str], named: set[str]
) -> None:
    from apiatlas.search.api_actions import resources_named
    from apiatlas.text import words

    assert resources_named([w.lower() for w in words(said)], resources) == named


@pytest.mark.parametrize(
    ("key", "resource"),
    [
        ("GET /api/v1/namespaces/{namespace}/pods", "pods"),
        ("GET /api/v1/namespaces/{namespace}/pods/{name}/log", "log"),
        ("DELETE /apis/x/v1/ingress-classes/{name}", "ingressclasses"),
        ("POST /chat.postMessage", ""),  # an RPC method
        ("API_Acc_Close", ""),  # a procedure
        ("AirplanesDB.All Airplanes", ""),  # a tool's API named in words, not a method and a path
        ("Weather.Forecast / Daily", ""),
    ],
)
def test_an_operation_acts_on_its_paths_last_literal_segment(key: str, resource: str) -> None:
    from apiatlas.search.api_actions import resource_of

    assert resource_of(key) == resource


NAMESPACED = [  # every operation of a namespaced resource says "namespace" as often as the namespace's own
    op("DELETE /namespaces/{name}", "Delete", "Delete the object."),
    op(
        "DELETE /namespaces/{namespace}/templates/{name}",
        "Delete a namespace template",
        "Delete a template of a namespace; the namespace keeps the rest of its namespace templates.",
    ),
]


@pytest.mark.parametrize(("factor", "first"), [(1.0, NAMESPACED[1].key), (0.9, NAMESPACED[0].key)])
def test_an_operation_on_another_resource_than_the_one_named_is_demoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, factor: float, first: str
) -> None:
    import apiatlas.search.api_actions as api_actions
    from plan_catalogs import catalog_of

    monkeypatch.setattr(api_actions, "OTHER_RESOURCE", factor)
    path = tmp_path / "ns.atlas"
    index_and_write(
        catalog_of(NAMESPACED), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(
            "delete namespace tmp-42", mode=SearchMode.LEXICAL
        )
    assert found.ranked[0].api_key == first, [(h.api_key, h.score) for h in found.ranked]


ABBREVIATED = [  # a request abbreviates a kind of three words or more by its initials: found by them
    op("GET /v1/widgetrepairtickets/{name}", "read the specified WidgetRepairTicket", "Read one ticket."),
    op("GET /v1/gadgetparts/{name}", "read the specified GadgetPart", "Read one part."),
]


def test_a_request_may_name_a_kind_by_its_initials(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "wrt.atlas"
    index_and_write(
        catalog_of(ABBREVIATED), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        found = search.search("the wrt", mode=SearchMode.LEXICAL)
        short = search.search("the gp", mode=SearchMode.LEXICAL)  # two words: not abbreviated
    assert [(h.api_key, h.matched) for h in found.ranked] == [(ABBREVIATED[0].key, ["wrt"])]
    assert short.ranked == []
