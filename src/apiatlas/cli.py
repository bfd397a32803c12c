"""Entry point of the ``apiatlas`` command: imports every command module, then runs the app."""

from importlib import import_module

from apiatlas.cli_app import app

# One module per documented feature under ``apiatlas.commands``; importing one registers its commands.
COMMAND_MODULES = (
    "version",
    "gen_docs",
    "compile",
    "info",
    "export",
    "serve",
    "suggest_curated",
    "demo",
    "drift",
    "bench_compile",
    "bench_server",
    "bench_openapi",
    "eval_retrieval",
    "bench_search",
    "audit",
    "bench_load",
    "plan",
    "eval_chains",
)
for _name in COMMAND_MODULES:
    import_module(f"apiatlas.commands.{_name}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
