"""A free loopback port, and an ASGI app served by uvicorn in a thread for the length of a block."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serve_asgi(app: Any, port: int | None = None, **options: Any) -> Iterator[int]:
    """Serve ``app`` on 127.0.0.1 (``port`` or a free one; ``options`` go to ``uvicorn.Config``, e.g.
    TLS files) in a thread until the block ends; yields the port once uvicorn has started."""
    port = port or free_port()
    runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if runner.started:
                break
            thread.join(0.05)
        assert runner.started, "uvicorn did not start"
        yield port
    finally:
        runner.should_exit = True
        thread.join(10)
