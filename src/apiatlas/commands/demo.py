"""``apiatlas demo``: embedded PostgreSQL + sample bank + compile + a real MCP client walkthrough."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import anyio
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError

DEFAULT_WORKDIR = Path(".apiatlas") / "demo"
READER_ROLE = "atlas_reader"  # the login the demo's server runs as (apiatlas db reader-role)


@app.command()
def demo(
    workdir: Annotated[
        Path, typer.Option(help="Where the database files, the snapshot and its report go.")
    ] = DEFAULT_WORKDIR,
    hold: Annotated[
        bool,
        typer.Option(
            help="Keep the embedded PostgreSQL running after the walkthrough (until Ctrl+C), "
            "so the printed client configuration works."
        ),
    ] = False,
) -> None:
    """Run the whole product on the bundled sample bank: database, compile, MCP server, three scenarios."""
    console = Console()
    from apiatlas.build import compile_docs
    from apiatlas.commands.compile import RichProgress
    from apiatlas.demo.playbook_walk import run_playbook_walk
    from apiatlas.demo.walkthrough import client_config, print_summary, run_walkthrough
    from apiatlas.embedded_pg import EmbeddedPostgres
    from apiatlas.samples.bankdb import load_bank_database
    from apiatlas.samples.demo_playbook import SAMPLE_PLAYBOOKS
    from apiatlas.samples.docs_writer import SAMPLE_CONFIG, SAMPLE_DOCS, SAMPLE_OVERLAYS

    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    snapshot = workdir / "bank.atlas"
    pg = EmbeddedPostgres(workdir / "pg")
    try:
        t0 = time.perf_counter()
        console.rule("[bold]1. The bank's database (embedded PostgreSQL)")
        pg.start()
        db_url = pg.create_database("bank")
        info = load_bank_database(db_url, reset=False)
        rows = ", ".join(f"{k} {v}" for k, v in sorted(info.counts.items()))
        console.print(
            f"PostgreSQL at {pg.data_dir} ready in {time.perf_counter() - t0:.1f} s "
            f"({'loaded' if info.loaded else 'already loaded'}; bank date {info.bank_date}); rows: {rows}; "
            f"{len(info.routines)} procedures in schema api"
        )

        console.rule("[bold]2. Compile the documentation into a snapshot")
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            sink = RichProgress(bar)
            result = compile_docs(
                SAMPLE_DOCS,
                overlays_dir=SAMPLE_OVERLAYS,
                config_path=SAMPLE_CONFIG if SAMPLE_CONFIG.is_file() else None,
                out=snapshot,
                progress=sink,
                playbooks_dir=SAMPLE_PLAYBOOKS,
            )
            sink.close()
        manifest = result.manifest
        graph = {k: v for k, v in manifest.graph.items() if k != "chains"}
        console.print(
            f"{SAMPLE_DOCS} → {snapshot} ({snapshot.stat().st_size // 1024} KiB), report {result.report}\n"
            f"counts: {manifest.counts}\ngraph: {graph}"
        )

        console.rule("[bold]3. A least-privilege login for the server (apiatlas db reader-role)")
        reader_url = least_privilege_login(console, snapshot, db_url)

        console.rule(f"[bold]4. An agent's conversation over MCP (stdio, official client, as {READER_ROLE})")
        records = anyio.run(run_walkthrough, snapshot, reader_url, console)
        console.rule("[bold]4b. Following a playbook, with progress kept by the server")
        records += anyio.run(run_playbook_walk, snapshot, reader_url, console)
        print_summary(console, records)

        console.rule("[bold]4b. The evidence assistant: a conversation in business words (apiatlas ask)")
        from apiatlas.demo.assistant_turns import run_assistant_turns

        settings = SAMPLE_CONFIG.parent / "assistant.yaml"
        settings_file = settings if settings.is_file() else None
        anyio.run(run_assistant_turns, snapshot, reader_url, settings_file, console)

        console.rule("[bold]5. Use it from Claude Desktop or Cursor")
        console.print("Add this to claude_desktop_config.json (or .cursor/mcp.json):")
        console.print(client_config(snapshot, reader_url), markup=False, highlight=False)
        console.print(
            f"VS Code, HTTP and any other snapshot: [bold]apiatlas config {snapshot} --client "
            "vscode|cursor|http --db URL[/] (the password from PGPASSWORD, never the file)"
        )
        if not hold:
            console.print(
                "[dim]The embedded database stops when the demo exits; run `apiatlas demo --hold` to keep it "
                "running for a client.[/]"
            )
        failed = [r for r in records if r.status == "error"]
        if failed:
            console.print(f"[red]{len(failed)} call(s) failed: {[(r.tool, r.reason) for r in failed]}")
            raise typer.Exit(1)
        if hold:
            console.print("[bold]Database running. Press Ctrl+C to stop.")
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    except ApiatlasError as exc:
        console.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    finally:
        pg.stop()


def least_privilege_login(console: Console, snapshot: Path, db_url: str) -> str:
    """Apply the reader role for the snapshot's kept read APIs, show the database refusing the login a
    table read, and return the login's URL (the server runs as it)."""
    import psycopg

    from apiatlas.errors import ConfigError
    from apiatlas.reader_role import apply_reader, login_url, plan_reader, reader_sql, refused_table_read

    reader_url = login_url(db_url, READER_ROLE)
    try:
        plan = plan_reader(snapshot, db_url, READER_ROLE)
        apply_reader(db_url, reader_sql(plan))
        refused = refused_table_read(reader_url, plan, db_url)
    except psycopg.Error as exc:
        message = f"the reader role {READER_ROLE} could not be set up: {exc}"
        raise ConfigError(message.splitlines()[0]) from exc
    console.print(
        f"login {READER_ROLE}: EXECUTE on {len(plan.routines)} routines of schema(s) "
        f"{', '.join(plan.routine_schemas)} ({len(plan.session_routines)} exchange session tables), each "
        f"SECURITY DEFINER owned by {plan.owner} (SELECT only); no table access, "
        f"default_transaction_read_only = on; {len(plan.missing)} documented read APIs have no routine here"
    )
    if refused:
        console.print(
            f"as {READER_ROLE}, SELECT * FROM {refused}: permission denied (checked in the database)"
        )
    return reader_url
