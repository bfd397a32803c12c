"""Entry point of the ``apiatlas`` command: imports every command module, then runs the app."""

from apiatlas.cli_app import app

# Each import registers its commands on ``app`` (one module per documented feature).
from apiatlas.commands import version  # noqa: F401
from apiatlas.commands import gen_docs  # noqa: F401
from apiatlas.commands import serve  # noqa: F401
from apiatlas.commands import bench_server  # noqa: F401
from apiatlas.commands import compile  # noqa: F401
from apiatlas.commands import info  # noqa: F401
from apiatlas.commands import export  # noqa: F401
from apiatlas.commands import bench_compile  # noqa: F401
from apiatlas.commands import demo  # noqa: F401


def main() -> None:
    app()


if __name__ == "__main__":
    main()
