"""The Typer application object shared by every command module."""

import typer

app = typer.Typer(
    name="apiatlas",
    help="Compile huge API surfaces into a snapshot an LLM agent navigates and calls safely over MCP.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bench_app = typer.Typer(
    help="Benchmarks that print figures (with a baseline where one exists).", no_args_is_help=True
)
app.add_typer(bench_app, name="bench")
