"""Many things of a kind asked (Stripe development set's misses, general mechanisms): "List the crates" is
answered by the page list of crates (``GET /crates`` returning ``{data: [...]}``, a page named for no kind),
not by the read of one crate fed from some list (``page_lists.asked_page``, ``fit._one_of_many``); an
optional input another operation requires whose description says it only filters ("Only return crates
with the given url.") is no lookup's to feed (``filter_inputs.feedable``); "IDs" names no thing
("the seal IDs of …")."""

from __future__ import annotations

from typing import Any

import pytest

from apiatlas.catalog.model import Api
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v
from apiatlas.planning.context import PlanContext
from apiatlas.planning.intent import asked_kind
from apiatlas.planning.planner import Planner
from apiatlas.planning.scoring import ChainScoring
from apiatlas.planning.steps import open_inputs
from apiatlas.snapshot import Snapshot
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

CRATE = "{type: object, properties: {id: {type: string}, url: {type: string}, hub: {type: string}}}"
HOOK = "{type: object, properties: {id: {type: string}, url: {type: string}, crate: {type: string}}}"


def _page(item: str) -> str:
    return "{type: object, properties: {has_more: {type: boolean}, data: {type: array, items: " + item + "}}}"


def _list(path: str, summary: str, params: list[tuple[str, bool, str]], out: str) -> str:
    given = ", ".join(
        f"{{name: {n}, in: query, required: {str(r).lower()}, description: '{d}', schema: {{type: string}}}}"
        for n, r, d in params
    )
    return f"""\
  {path}:
    get:
      summary: {summary}
      parameters: [{given}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


_CREATE_HOOK = """\
  /hooks:
    post:
      summary: Create a hook
      parameters: [{name: url, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {schema: HOOK}}}}
""".replace("HOOK", HOOK)

YARD = "openapi: 3.0.0\ninfo: {title: Yard, version: '1'}\npaths:\n" + "".join(
    [
        _list("/crates", "Returns a list of your crates, sorted by creation date, the most recent first",
              [("url", False, "Only return crates with the given url."),
               ("hub", False, "The hub of the crates.")],
              _page(CRATE)),
        _by_path("/crates/{crate}", "get", "Retrieves an existing crate", "crate", CRATE),
        _list("/hubs", "Returns a list of hubs", [], _page(HOOK)),
        _by_path("/hubs/{hub}", "get", "Retrieves a hub", "hub", HOOK),
        _by_path("/hubs/{hub}/crates", "get", "Returns a list of crates stored at a hub", "hub",
                 _page(CRATE)),
        _CREATE_HOOK,
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def yard(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "many_asked_yard", YARD)


def test_many_asked_are_answered_by_their_page_list(yard: Snapshot) -> None:
    planner = Planner(yard, allow=None)
    assert planner.plan("List the crates").chains[0].api_keys == ["GET /crates"]
    asked = planner.plan("Which crates are at the hub hub_8Kd02LmQ?").chains[0].api_keys
    assert asked in (["GET /hubs/{hub}/crates"], ["GET /crates"])  # the crates filtered by the hub, both


def test_one_stated_item_is_still_read(yard: Snapshot) -> None:
    chains = Planner(yard, allow=None).plan("Show the crate crt_91KdLq2m").chains
    assert chains[0].api_keys == ["GET /crates/{crate}"]


def test_an_input_saying_it_filters_is_no_lookup(yard: Snapshot) -> None:
    planner, crates = Planner(yard, allow=None), yard.get_api("GET /crates")
    assert crates is not None
    ctx = planner._read("List all crates", None, dict)
    assert "url" not in {s.name for s in open_inputs(ctx, crates)}
    assert planner.plan("List all crates").chains[0].api_keys == ["GET /crates"]


def test_ids_name_no_thing() -> None:
    found = v.extract_values("List the seal IDs of crate crt_91KdLq2m")
    assert [f.value for f in found if f.kind == v.ENTITY] == []
    assert [f.value for f in v.extract_values("Show the ID of Acme Ltd")] == ["Acme Ltd"]


def test_the_head_of_a_noun_compound_is_the_kind_asked() -> None:
    words = CatalogVocabulary(kinds=["shipping", "label", "deployment", "pod"], kind_words={"pods": "pod"})
    assert asked_kind("Show the shipping label lbl_8Kd02LmQ", ["lbl_8Kd02LmQ"], words) == "label"
    assert asked_kind("Show the shipping of order o_1", ["o_1"], words) == "shipping"
    # a stated value between two kinds joins nothing
    assert asked_kind("Which deployment web-1 pods run?", ["web-1"], words) == "deployment"


def test_kind_words_read_across_from_another_script_keep_their_own_order() -> None:
    """«логи подов» read across is "log pod": Russian puts the head first (the logs of the pods), so the
    head-last reading of an English compound is not applied (the planner passes ``head_last=False`` when a
    word was read across)."""
    words = CatalogVocabulary(kinds=["log", "pod"], kind_words={"logs": "log", "pods": "pod"})
    assert asked_kind("покажи log pod web-1", ["web-1"], words, head_last=False) == "log"
    assert asked_kind("show the log pod web-1", ["web-1"], words) == "pod"  # English: the last is the head


def test_a_capital_code_that_spells_a_link_word_is_still_a_value() -> None:
    """Only the identifier's own acronym ("ID", "IDs") is no name: a country code written as a link word
    ("AT", "NO") or a company's capitals ("BY Group") still name a thing."""
    assert [f.value for f in v.extract_values("Show the tax rates for country AT")] == ["AT"]
    assert [f.value for f in v.extract_values("List the customers in country NO")] == ["NO"]
    assert [f.value for f in v.extract_values("Show the company BY Group")] == ["BY Group"]
    assert [f.value for f in v.extract_values("Get the IDs for Acme Ltd")] == ["Acme Ltd"]


def test_a_page_list_a_step_before_picks_the_newest_of_earns_no_list_bonus(
    yard: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest crate picked from a hub's page of crates, then the page of crates again, is no list asked
    for: a kind a step before picks the newest of earns no list bonus, its page lists named for no kind
    (``data[]``) too; the page list alone keeps it."""
    lists: dict[tuple[str, ...], float] = {}
    terms = ChainScoring._terms

    def kept(self: ChainScoring, ctx: PlanContext, apis: list[Api], *rest: Any) -> dict[str, float]:
        out = terms(self, ctx, apis, *rest)
        lists[tuple(a.key for a in apis)] = out["lists"]
        return out

    monkeypatch.setattr(ChainScoring, "_terms", kept)  # the real scoring, its terms read on the way
    Planner(yard, allow=None).plan("List the newest crates")
    assert lists[("GET /crates",)] > 0
    assert lists[("GET /hubs", "GET /hubs/{hub}/crates", "GET /crates")] == 0


SIEVE = "{type: object, properties: {filter_id: {type: string}, label: {type: string}}}"
MAIL = "{type: object, properties: {id: {type: string}, subject: {type: string}}}"
INBOX = "openapi: 3.0.0\ninfo: {title: Inbox, version: '1'}\npaths:\n" + "".join(
    [
        _list("/filters", "Returns a list of your saved filters", [], _page(SIEVE)),
        _by_path("/filters/{filter_id}", "get", "Retrieves a saved filter", "filter_id", SIEVE),
        _list("/mails", "Returns a list of mails",
              [("filter_id", False, "Filter ID of the saved filter to apply.")], _page(MAIL)),
    ]
)  # fmt: skip


def test_a_description_naming_a_kind_of_the_catalog_says_no_filter(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """ "Filter ID of the saved filter …" names a thing of a catalog that has filters (``GET /filters``), no
    narrowing: the input stays a lookup's to feed, as ``lookups.wanted`` has it."""
    inbox = compiled_spec(tmp_path_factory, "many_asked_inbox", INBOX)
    planner, mails = Planner(inbox, allow=None), inbox.get_api("GET /mails")
    assert mails is not None
    ctx = planner._read("List the mails of my newest filter", None, dict)
    assert "filter" in ctx.cache.vocabulary.kind_set
    assert "filter_id" in {s.name for s in open_inputs(ctx, mails)}


POD = "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}"
PODS = "{type: object, properties: {items: {type: array, items: " + POD + "}}}"
CLUSTER = "openapi: 3.0.0\ninfo: {title: Cluster, version: '1'}\npaths:\n" + "".join(
    [
        _list("/pods", "List pods", [], PODS),
        _by_path("/pods/{name}", "get", "Read a pod", "name", POD),
        _by_path("/pods/{name}/log", "get", "Read the log of a pod", "name", "{type: string}"),
        _by_path("/deployments/{name}", "get", "Read a deployment", "name", POD),
        _list("/logs", "List logs", [], PODS),
        _by_path("/logs/{name}", "get", "Read a log", "name", POD),
    ]
)  # fmt: skip


def test_a_genitive_read_across_is_no_noun_compound(tmp_path_factory: pytest.TempPathFactory) -> None:
    """«логи подов» is the logs of pods, read across as "log pod": a genitive after its head keeps the first
    kind; only a compound of English words ("the pod log") takes the last."""
    planner = Planner(compiled_spec(tmp_path_factory, "many_asked_cluster", CLUSTER), allow=None)
    assert planner._read("покажи логи подов деплоймента web", None, dict).kind == "log"
    assert planner._read("show the pod log of deployment web", None, dict).kind == "log"
