"""CLI commands, one module per command group; each registers itself on ``apiatlas.cli_app.app``."""
