"""CLI commands, one module per command group; importing a module registers its commands on the app.

``COMMANDS`` maps each top-level command (or command group) to the modules that define it, so the
``apiatlas`` entry point imports only what the invoked command needs (start-up stays fast).
"""

COMMANDS: dict[str, tuple[str, ...]] = {
    "version": ("version",),
    "gen-docs": ("gen_docs",),
    "compile": ("compile",),
    "info": ("info",),
    "export": ("export",),
    "serve": ("serve",),
    "suggest-curated": ("suggest_curated",),
    "demo": ("demo",),
    "drift": ("drift",),
    "audit": ("audit",),
    "plan": ("plan",),
    "search": ("search",),
    "web": ("web",),
    "ask": ("ask",),
    "chat": ("chat",),
    "trace": ("trace",),
    "config": ("config",),
    "registry-entry": ("registry_entry",),
    "bench": (
        "bench_compile",
        "bench_server",
        "bench_tokens",
        "bench_openapi",
        "bench_search",
        "bench_embed",
        "bench_code",
        "bench_load",
        "bench_fuzz",
        "plan",
    ),
    "eval": (
        "eval_retrieval",
        "eval_chains",
        "eval_answers",
        "eval_code",
        "eval_reach_model",
        "eval_null_calibration",
    ),
    "db": ("db_reader_role",),
}

# Every command module, in help order.
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for group in COMMANDS.values() for m in group))
