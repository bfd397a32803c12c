"""An opaque id the request names ("channel C024BE91L") goes straight into the input its noun names."""

from __future__ import annotations

from pathlib import Path

from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get


def test_a_stated_id_fills_the_target_with_nothing_to_ask(tmp_path: Path) -> None:
    apis = [
        http_get("GET /channels/{channel}/messages", "channel", "out", "messages[].text", "messages[].user",
                 title="Messages of a channel"),
        http_get("GET /channels", "name", "out", "channels[].id", "channels[].name", title="Find channels"),
    ]  # fmt: skip
    path = tmp_path / "chat.atlas"
    write_snapshot(catalog_of(apis), path, options={"source": "test"})
    with Snapshot.open(path) as snap:
        plan = Planner(snap, allow=reads_only).plan("Show the messages of channel C024BE91L")
    best = plan.chains[0]
    assert best.api_keys == ["GET /channels/{channel}/messages"] and best.missing == []
    assert [(v.kind, v.value) for v in plan.values] == [("identifier", "C024BE91L")]
    step = best.chain_steps({})[0]
    assert step.args == {"channel": "C024BE91L"}


def test_among_many_apis_filtered_by_an_id_the_one_it_names_is_planned(tmp_path: Path) -> None:
    # sixty reports filtered by customer: the request's words find them before the one API that
    # takes a customer's id (the Stripe spec's "Show the customer cus_…" met 40 such hits)
    apis = [
        http_get(
            f"GET /reports/r{n}",
            "customer",
            "out",
            "rows[].total",
            title=f"Customer report: customer totals {n}",
        )
        for n in range(60)
    ]
    for api in apis:
        api.params[0].required = False  # a filter: these list every customer's rows without it
    apis.append(
        http_get("GET /records/{customer}", "customer", "out", "id", "email", title="Retrieve a customer")
    )
    path = tmp_path / "crm.atlas"
    write_snapshot(catalog_of(apis), path, options={"source": "test"})
    with Snapshot.open(path) as snap:
        plan = Planner(snap, allow=reads_only).plan("Show the customer cus_NffrFeUfNV2Hib")
    assert plan.chains[0].api_keys == ["GET /records/{customer}"] and not plan.chains[0].missing


def test_an_id_named_by_its_noun_fills_a_path_input_of_that_type(tmp_path: Path) -> None:
    # Stripe's GET /v1/events/{id}: the input is called "id", its type is the resource, "event"
    apis = [
        http_get("GET /events/{id}", "id", "out", "type", "created", title="Retrieves an event",
                 ptype="event"),
        http_get("GET /events", "limit", "out", "data[].id", "data[].type", title="List events"),
    ]  # fmt: skip
    apis[1].params[0].required = False
    path = tmp_path / "events.atlas"
    write_snapshot(catalog_of(apis), path, options={"source": "test"})
    with Snapshot.open(path) as snap:
        plan = Planner(snap, allow=reads_only).plan("Show the event evt_1NG8Du2eZvKYlo2CUI79vXWy")
    assert plan.chains[0].api_keys == ["GET /events/{id}"] and not plan.chains[0].missing
    assert plan.chains[0].chain_steps({})[0].args == {"id": "evt_1NG8Du2eZvKYlo2CUI79vXWy"}
