"""The web pages in a real browser (Debian's chromium driven by playwright): catalog → object → API → a click
on the graph, a search and a plan answered as the tools answer them, the reports, a role that must not see
an API under ``/ui`` of the authenticated gateway, and no request leaving 127.0.0.1.

One browser for the module; every page is saved as a screenshot under the test's temporary folder. Set
``APIATLAS_WEB_TIMING_SNAPSHOT`` to a compiled snapshot (e.g. the Kubernetes spec's) to print how long its
largest object's list and an API page take in the browser (reported, never asserted).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

from apiatlas.build import compile_docs
from apiatlas.drift import DriftCase, DriftKind, DriftReport
from apiatlas.security.config import AuditSettings, AuthSettings, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.app import build_server, http_app
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from apiatlas.web.app import single_site_app
from apiatlas.web.site import Reports, WebSite, default_drift_path
from local_server import free_port, serve_asgi
from test_security_http import write_keys

CHROMIUM = Path(os.environ.get("APIATLAS_CHROMIUM", "/usr/bin/chromium"))
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMING_SNAPSHOT = "APIATLAS_WEB_TIMING_SNAPSHOT"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bank"
CHAIN = ["API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "API_DSec_FindListIDByAccID",
         "API_DealSecurity_FindListByID"]  # fmt: skip
ROLES = {
    "retail": RoleSettings(objects=["Prs", "Acc"]),  # no securities deals (DSec)
    "browser": RoleSettings(tools=["list_business_objects", "list_apis", "describe_api"]),
}

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
if not CHROMIUM.is_file():
    pytest.skip(
        f"no chromium at {CHROMIUM} (./run test installs Debian's chromium with apt)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    if not (EXAMPLES / "docs").is_dir():
        pytest.skip("examples/bank/docs is not in this checkout")
    out = tmp_path_factory.mktemp("web") / "bank.atlas"
    config = EXAMPLES / "apiatlas.yaml"
    compile_docs(EXAMPLES / "docs", overlays_dir=EXAMPLES / "overlays", config_path=config, out=out,
                 write_report=False)  # fmt: skip
    with Snapshot.open(out) as snap:
        yield snap


@pytest.fixture(scope="module")
def site(bank: Snapshot) -> WebSite:
    return WebSite.over(bank, ServerConfig(), Reports(bank))


@pytest.fixture(scope="module")
def base_url(site: WebSite) -> Iterator[str]:
    with serve_asgi(single_site_app(site)) as port:
        yield f"http://127.0.0.1:{port}"


class Requests:
    """Every URL the browser asked for during the module."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def hosts(self) -> set[str]:
        return {urlsplit(u).hostname or u for u in self.urls if not u.startswith(("data:", "about:"))}


@pytest.fixture(scope="module")
def requests_seen() -> Requests:
    return Requests()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, requests_seen: Requests) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.on("request", lambda request: requests_seen.urls.append(request.url))
    opened = context.new_page()
    yield opened
    context.close()


def shot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 0
    return path


def load_ms(page: Any) -> float:
    """The page's navigation time in the browser: request start to load event end (ms)."""
    timing = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
    import json

    entry = json.loads(timing)
    return float(entry["loadEventEnd"] - entry["requestStart"])


def test_catalog_object_api_and_a_click_on_the_graph(page: Any, base_url: str, tmp_path: Path) -> None:
    response = page.goto(base_url + "/")
    assert response.status == 200
    assert "script-src" not in response.headers["content-security-policy"]  # default-src 'none': no script
    assert page.locator("h1").inner_text() == "Business objects"
    acc_row = page.locator("table.objects tr", has=page.locator("a", has_text="Acc")).first
    assert acc_row.locator("td.num").first.inner_text().strip().isdigit()  # kept count
    shot(page, tmp_path, "1-catalog")

    page.get_by_role("link", name="Acc", exact=True).click()
    assert page.locator("h1").inner_text().startswith("Acc")
    assert page.locator("tr.dropped").count() > 0  # dropped APIs are listed with their funnel stage
    assert "dropped at" in page.locator("tr.dropped").first.inner_text()
    shot(page, tmp_path, "2-object")

    page.get_by_role("link", name="API_Acc_FindListByListOwnerID", exact=True).click()
    assert page.locator("h1").inner_text() == "API_Acc_FindListByListOwnerID"
    for heading in ("Funnel", "Source", "Overlay", "Inputs", "Output tables", "Error codes",
                    "Dependency neighbourhood"):  # fmt: skip
        assert page.get_by_role("heading", name=heading, exact=True).count() == 1, heading
    assert "Kept" in page.locator("#funnel-h + p").inner_text()
    assert ".htm" in page.locator("#source-h + p").inner_text()
    assert page.locator("svg.graph a.node-link").count() >= 3
    assert page.locator("form[method=post], script").count() == 0  # no way to run the API from its page
    shot(page, tmp_path, "3-api")

    consumer = page.locator("svg.graph g.node.consumer", has_text="API_Acc_GetRest").first
    consumer.click()
    page.wait_for_url("**/api?key=API_Acc_GetRest")
    assert page.locator("h1").inner_text() == "API_Acc_GetRest"
    producers = page.locator("svg.graph g.node.producer text.label").all_text_contents()
    assert any("API_Acc_FindListByListOwnerID" in t for t in producers)  # the way back is drawn
    shot(page, tmp_path, "4-api-after-click")


def test_keyboard_reaches_the_graph_and_follows_a_node(page: Any, base_url: str) -> None:
    page.goto(base_url + "/api?key=" + quote("API_Acc_FindListByListOwnerID"))
    page.locator("svg.graph a.node-link").nth(1).focus()
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    page.keyboard.press("Enter")
    page.wait_for_url("**" + focused)
    assert page.locator("h1").inner_text() in focused.replace("%2F", "/").replace("+", " ")


def test_search_shows_the_tools_ranking_and_why(
    page: Any, base_url: str, site: WebSite, tmp_path: Path
) -> None:
    query = "остаток на счёте"
    page.goto(base_url + "/search")
    page.fill("#q", query)
    page.locator("main form button").click()
    page.wait_for_selector("ol.hits")
    shown = [t.strip() for t in page.locator("ol.hits li > a:first-child code").all_inner_texts()]
    expected = site.navigator.search(query, None, 20)
    assert shown == [h.api_key for h in expected.hits]
    whys = page.locator("ol.hits .why").all_inner_texts()
    assert whys and all(w.strip() for w in whys)
    shot(page, tmp_path, "5-search")

    page.goto(base_url + "/search?q=" + quote("recipe for chocolate cake"))
    abstained = site.navigator.search("recipe for chocolate cake", None, 20)
    assert abstained.reason is not None and abstained.reason.value == "NO_CONFIDENT_MATCH"
    assert "NO_CONFIDENT_MATCH" in page.locator(".status").inner_text()
    assert page.locator("ol.hits").count() == 0
    assert page.locator("main a", has_text=abstained.closest_objects[0]).count() == 1
    shot(page, tmp_path, "6-search-abstains")


def test_plan_draws_the_chain_with_where_inputs_come_from(page: Any, base_url: str, tmp_path: Path) -> None:
    page.goto(base_url + "/plan")
    page.fill("#request", "сделки клиента Михалова по ценным бумагам")
    page.locator("main form button").click()
    page.wait_for_selector("article.chain")
    first = page.locator("article.chain").first
    assert [t.strip() for t in first.locator("p a code").all_inner_texts()] == CHAIN
    steps = first.locator("svg.graph g.node.step text.label").all_text_contents()
    assert steps == CHAIN
    assert "Михалов" in (
        first.locator("svg.graph g.node.source").text_content() or ""
    )  # the stated value feeds step 0
    assert first.locator("svg.graph g.edge.mapped").count() == len(CHAIN) - 1
    assert "← step 0" in first.locator("ol.inputs").inner_text()
    unsure = "NO_CONFIDENT_PLAN" in page.locator(".status").inner_text()
    assert unsure == (page.locator("ul.unclear li").count() > 0)  # not confident: what is unclear shown
    assert page.locator("form[method=post]").count() == 0  # nothing here sends anything but a query
    shot(page, tmp_path, "7-plan")


def test_reports_render_with_mermaid_drawn(page: Any, base_url: str, bank: Snapshot, tmp_path: Path) -> None:
    page.goto(base_url + "/reports")
    assert page.locator("h1").inner_text() == "Compile report"
    assert page.locator("figure.diagram svg.graph").count() >= 2  # the funnel and the chains
    assert "approved" in (page.locator("figure.diagram svg").first.text_content() or "")
    assert page.locator("article.report a code").count() > 0  # API names link to their pages
    shot(page, tmp_path, "8-compile-report")

    page.goto(base_url + "/reports/drift")
    assert "No drift report" in page.locator("main").inner_text()
    report = DriftReport(docs_source="docs", catalog_source="db", documented_apis=2, database_routines=2,
                         matched=1, cases=[DriftCase(kind=DriftKind.UNDOCUMENTED, api="api.unlisted",
                                                     decision="not served: no documentation")])  # fmt: skip
    drift = default_drift_path(bank.path)
    drift.write_text(report.model_dump_json(), encoding="utf-8")
    try:
        page.goto(base_url + "/reports/drift")
        assert "api.unlisted" in page.locator("article.report").inner_text()
        shot(page, tmp_path, "9-drift-report")
    finally:
        drift.unlink()

    page.goto(base_url + "/reports/manifest")
    rows = page.locator("table.manifest > tbody > tr > th").all_inner_texts()
    assert "funnel" in rows and "counts" in rows
    shot(page, tmp_path, "10-manifest")


@pytest.fixture(scope="module")
def gateway_url(
    bank: Snapshot, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("web-gateway")
    keys_file, keys = write_keys(folder, {"teller": ["retail"], "viewer": ["browser"]})
    port = free_port()
    security = SecurityConfig(
        auth=AuthSettings(resource_url=f"http://127.0.0.1:{port}/mcp", keys_file=keys_file),
        roles=ROLES,
        audit=AuditSettings(file=folder / "audit.jsonl"),
    )
    front = SecureGateway(bank, None, ServerConfig(tool_prefix="bank_"), security)
    with serve_asgi(front.asgi(), port):
        yield f"http://127.0.0.1:{port}/ui", keys


def test_a_role_does_not_see_what_it_is_not_granted(
    browser: Any, gateway_url: tuple[str, dict[str, str]], requests_seen: Requests, tmp_path: Path
) -> None:
    url, keys = gateway_url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.on("request", lambda request: requests_seen.urls.append(request.url))
    page = context.new_page()
    try:
        assert page.goto(url + "/").status == 401  # not signed in: the sign-in form
        shot(page, tmp_path, "11-sign-in")
        page.fill("#token", "aa_not-a-key")
        with page.expect_response(lambda r: r.url.endswith("/ui/login")) as answer:
            page.locator("main form button").click()
        assert answer.value.status == 401 and page.locator(".error").count() == 1
        page.fill("#token", keys["teller"])
        page.locator("main form button").click()
        page.wait_for_selector("table.objects")
        objects = {t.strip() for t in page.locator("table.objects th[scope=row]").all_inner_texts()}
        assert objects == {"Prs", "Acc"}
        shot(page, tmp_path, "12-role-catalog")

        hidden = "API_DSec_FindListIDByAccID"
        assert page.goto(url + "/api?key=" + hidden).status == 404
        page.goto(url + "/api?key=API_Acc_FindListByListOwnerID")
        assert page.locator("svg.graph").count() == 1
        graph = page.locator("section[aria-labelledby=graph-h]").inner_text()
        assert "API_Acc_GetRest" in graph and hidden not in graph  # not a consumer for this role
        assert page.locator(f"a[href*={hidden}]").count() == 0  # (its prose may name it, as describe_api's)
        page.goto(url + "/search?q=" + quote("сделки с ценными бумагами по счёту"))
        assert "DSec" not in page.locator("main").inner_text()
        shot(page, tmp_path, "13-role-search")
        assert page.goto(url + "/reports").status == 403  # the reports cover APIs this role cannot see
        assert page.locator("a", has_text="reports").count() == 0
        shot(page, tmp_path, "13b-role-reports-refused")
    finally:
        context.close()

    viewer = browser.new_context(extra_http_headers={"Authorization": f"Bearer {keys['viewer']}"})
    viewer.on("request", lambda request: requests_seen.urls.append(request.url))
    try:
        page = viewer.new_page()
        assert page.goto(url + "/").status == 200  # the header, as an MCP client sends it
        assert page.goto(url + "/plan?request=x").status == 403  # plan_chain is not granted to this role
        page.goto(url + "/api?key=API_Acc_FindListByListOwnerID")
        assert "not granted the dependency_chain tool" in page.locator("main").inner_text()
    finally:
        viewer.close()


def test_the_pages_under_ui_of_apiatlas_serve_http(page: Any, bank: Snapshot, tmp_path: Path) -> None:
    """``apiatlas serve --transport http`` (no --security): the pages at /ui next to the MCP path."""
    config = ServerConfig(tool_prefix="bank_")
    with serve_asgi(http_app(build_server(bank, None, config), config)) as port:
        base = f"http://127.0.0.1:{port}/ui"
        assert page.goto(base + "/").status == 200
        page.get_by_role("link", name="Prs", exact=True).click()
        page.wait_for_url("**/ui/objects/Prs")
        page.get_by_role("link", name="API_Prs_FindListByFIO", exact=True).click()
        assert page.locator("h1").inner_text() == "API_Prs_FindListByFIO"
        assert page.locator("link[rel=stylesheet]").get_attribute("href") == "/ui/static/style.css"
        assert page.goto(base + "/reports").status == 200
        shot(page, tmp_path, "14-serve-ui-api")


@contextmanager
def web_process(snapshot: Path, *options: str) -> Iterator[int]:
    """``apiatlas web SNAP --port P [options]`` started as a user starts it; yields P once it listens;
    stopped by its process id."""
    port = free_port()
    command = [sys.executable, "-m", "apiatlas.cli", "web", str(snapshot), "--port", str(port), *options]
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "apiatlas web did not listen"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_the_apiatlas_web_command(page: Any, bank: Snapshot, tmp_path: Path) -> None:
    """The real command, as a user starts it: ``apiatlas web SNAP --port P``; stopped by its process id."""
    with web_process(bank.path) as port:
        assert page.goto(f"http://127.0.0.1:{port}/").status == 200
        assert page.locator("table.objects th[scope=row]").count() == len(bank.list_objects(0, 10_000)[0])
        shot(page, tmp_path, "15-apiatlas-web")
        assert page.goto(f"http://127.0.0.1:{port}/ask").status == 200  # no --db: asking needs one
        assert "Asking needs an executor" in page.locator(".unavailable").inner_text()
        assert page.locator("form.ask, textarea").count() == 0


def test_no_request_left_127_0_0_1(requests_seen: Requests) -> None:
    """Runs last in the module: every page, stylesheet and form the tests above loaded was local."""
    assert requests_seen.urls, "the tests above recorded no request"
    assert requests_seen.hosts() == {"127.0.0.1"}


@pytest.mark.skipif(
    not os.environ.get("APIATLAS_WEB_TIMING_SNAPSHOT"), reason="set APIATLAS_WEB_TIMING_SNAPSHOT"
)
def test_timing_on_a_large_snapshot(browser: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Prints the browser's navigation time of the largest object's list and of API pages (not asserted)."""
    path = Path(os.environ[TIMING_SNAPSHOT])
    with Snapshot.open(path) as snap:
        site = WebSite.over(snap, ServerConfig(), Reports(snap))
        site.warm()
        counts = snap.object_api_counts()
        largest = max(counts, key=lambda k: counts[k])
        apis, _ = snap.list_apis(largest, 0, 5)
        with serve_asgi(single_site_app(site)) as port:
            page = browser.new_page()
            base = f"http://127.0.0.1:{port}"
            figures = []
            for label, target in [("catalog", "/"), (f"object {largest} ({counts[largest]} APIs)",
                                  "/objects/" + quote(largest))] + [
                (f"API {a.key}", "/api?key=" + quote(a.key)) for a in apis]:  # fmt: skip
                page.goto(base + target)
                first = load_ms(page)
                page.reload()
                figures.append(f"{label}: first {first:.0f} ms, again {load_ms(page):.0f} ms")
            page.close()
    with capsys.disabled():
        print("\nweb timing on", path.name, "\n  " + "\n  ".join(figures))
