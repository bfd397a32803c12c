"""A stdio server's first answers from its previous start, while the rest of it loads.

A client's first requests — ``initialize`` (or ``server/discover``) and the lists (tools, prompts,
resources) — ask what a server built from the same snapshot, config, environment and code always
answers the same. The MCP SDK, typer and the tools' models take most of a cold start to import
(``apiatlas bench cold-start``), so the installed script (``apiatlas.entry``), started as ``apiatlas
serve ...``, calls :func:`begin` before importing any of them:

- the **start key** is a hash of the arguments, the working directory, the Python executable, the
  ``APIATLAS_*`` and ``PG*`` environment (hashed, never stored), the size and mtime of every argument
  that names a file, and of every file of the installed apiatlas and the MCP SDK;
- when ``$APIATLAS_CACHE/stdio-start/<key>.json`` holds answers of an earlier start with that key, a
  **prelude** thread reads stdin from the first byte on and answers each request the file holds at
  once (its recorded result under the request's id), while the main thread goes on as before;
- every line read is also passed on, in order, to the server once it runs (``serve_stdio_guarded``):
  it sees exactly the messages it would have seen, the ``initialize`` included, and its own responses
  to requests already answered are dropped on the way out;
- those responses are compared with the answers given: a difference (a stale file) is written back
  to the file and, for ``tools/list``, followed by ``notifications/tools/list_changed``, so the client
  lists again. Without a file the server's answers to those requests are recorded for the next start;
- a start with no file for its key (a snapshot never served, a new folder, an empty cache) answers from
  the snapshot's own record of a default server's answers, when it is a default start of that code
  (``start_record``: ``apiatlas compile`` writes it), and is then checked and recorded the same way.

The protocol's stdout is moved off file descriptor 1 at :func:`begin` (fd 1 then writes to stderr), so
nothing printed while the server loads can reach the wire. ``APIATLAS_STDIO_START=off`` turns it off.
Only standard-library modules are imported here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import os
import queue
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from apiatlas.local_cache import cache_root

LISTS = frozenset({"initialize", "server/discover", "tools/list", "prompts/list", "resources/list",
                   "resources/templates/list"})  # fmt: skip
OFF_ENV = "APIATLAS_STDIO_START"
_FORMAT = 1


def cache_dir() -> Path:
    """``$APIATLAS_CACHE/stdio-start`` (default ``~/.cache/apiatlas``, as the vector cache)."""
    return cache_root() / "stdio-start"


def package_files(root: Path) -> Iterator[str]:
    """Every file below ``root`` but compiled bytecode (``__pycache__``), folders and names sorted."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            yield os.path.join(folder, name)


def _tree_signature(root: Path) -> list[tuple[str, int, int]]:
    return [(path, (stat := os.stat(path)).st_size, stat.st_mtime_ns) for path in package_files(root)]


def start_key(argv: list[str]) -> str:
    """What a stdio server's first answers depend on, hashed (see the module's docstring)."""
    files = []
    for arg in argv:
        for part in (arg, arg.partition("=")[2]):
            if part and os.path.isfile(part):
                stat = os.stat(part)
                files.append((os.path.abspath(part), stat.st_size, stat.st_mtime_ns))
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(("APIATLAS_", "PG")) and k != OFF_ENV)
    code = [_tree_signature(Path(__file__).resolve().parents[1])]
    for package in ("mcp", "mcp_types"):  # a reinstalled SDK rewrites its __init__.py (found, not imported)
        spec = importlib.util.find_spec(package)
        origin = spec.origin if spec is not None else None
        init = os.stat(origin) if origin else None
        code.append([] if origin is None or init is None else [(origin, init.st_size, init.st_mtime_ns)])
    whole = {"format": _FORMAT, "argv": argv, "cwd": os.getcwd(), "python": sys.executable, "env": env,
             "files": files, "code": code}  # fmt: skip
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode("utf-8")).hexdigest()[:32]


# per-request fields of ``params._meta`` that no answer depends on (a trace context, a progress token)
_VOLATILE_META = frozenset({"traceparent", "tracestate", "baggage", "progressToken"})


def request_key(method: str, params: Any) -> str:
    """A request as its answer depends on it: method and params, without the per-request ``_meta``
    fields (``_VOLATILE_META``)."""
    if isinstance(params, dict) and isinstance(params.get("_meta"), dict):
        meta = {k: v for k, v in params["_meta"].items() if k not in _VOLATILE_META}
        params = {**params, "_meta": meta}
    return json.dumps([method, params], sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class StartAnswers:
    """The answers of one start key: read from, and written back to, its JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.answers: dict[str, Any] = {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") == _FORMAT and isinstance(data.get("answers"), dict):
                self.answers = data["answers"]
        except (OSError, ValueError):
            pass

    def put(self, key: str, result: Any) -> bool:
        """Keep ``result`` for ``key``; True when it was not already the kept one (the file is rewritten)."""
        if self.answers.get(key) == result:
            return False
        self.answers[key] = result
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            scratch = self.path.with_suffix(f".{os.getpid()}.tmp")
            scratch.write_text(json.dumps({"format": _FORMAT, "answers": self.answers}), encoding="utf-8")
            os.replace(scratch, self.path)
        except OSError:
            pass  # a read-only cache only costs the next start its speed
        return True


class Wire:
    """The protocol's stdout: fd 1's file moved to a private descriptor, fd 1 pointed at stderr."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self._fd = os.dup(1)
        os.dup2(2, 1)
        self._lock = threading.Lock()

    def write(self, line: str) -> None:
        data = (line.rstrip("\n") + "\n").encode("utf-8")
        with self._lock:
            while data:
                data = data[os.write(self._fd, data) :]


class StdioStart:
    """One ``apiatlas serve`` start over stdio: the answers of its key, and the prelude when they exist."""

    def __init__(self, key: str, argv: list[str] | None = None) -> None:
        self.store = StartAnswers(cache_dir() / f"{key}.json")
        self.held = self.store.answers
        if not self.held and argv is not None:  # none held for this key: the snapshot's own record, if any
            self.held = _recorded(argv)
        self.wire = Wire()  # last: a failure before it leaves the protocol's stdout where it was
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._asked: dict[str, str] = {}  # JSON id -> request key, for the requests the lists hold
        self._answered: dict[str, Any] = {}  # JSON id -> the result the prelude gave
        self._lock = threading.Lock()
        self.prelude = bool(self.held)
        if self.prelude:
            threading.Thread(target=self._read_stdin, name="apiatlas-stdio-prelude", daemon=True).start()

    def _read_stdin(self) -> None:
        for raw in iter(sys.stdin.buffer.readline, b""):
            line = raw.decode("utf-8", errors="replace")
            self.heard(line)
            self.lines.put(line)
        self.lines.put(None)

    def heard(self, line: str) -> None:
        """A line from the client: a list request is noted, and answered now when its answer is held."""
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not isinstance(message, dict) or message.get("method") not in LISTS or "id" not in message:
            return
        ident, key = json.dumps(message["id"]), request_key(message["method"], message.get("params"))
        with self._lock:
            self._asked[ident] = key
            result = self.held.get(key) if self.prelude else None
            if result is not None:
                self._answered[ident] = result
                self.wire.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}))

    def said(self, line: str) -> None:
        """A line from the server: written, unless it answers a request the prelude answered (then it
        corrects the held answer when it differs); a list's result is kept for the next start."""
        with self._lock:
            waiting = bool(self._asked)
        message = _response(line) if waiting else None
        if message is None:
            self.wire.write(line)
            return
        ident = json.dumps(message["id"])
        with self._lock:
            key = self._asked.pop(ident, None)
            given = self._answered.pop(ident, None)
        if key is None or "result" not in message:
            self.wire.write(line)
            return
        self.store.put(key, message["result"])
        with self._lock:  # a later request gets the server's answer (held may be the snapshot's record)
            self.held[key] = message["result"]
        if given is None:
            self.wire.write(line)
        elif given != message["result"]:  # the held answer was stale: the client is told what changed
            method = json.loads(key)[0]
            changed = _CHANGED.get(method)
            if changed is not None:
                self.wire.write(json.dumps({"jsonrpc": "2.0", "method": changed}))
            print(f"apiatlas: the held answer to {method} was stale; corrected", file=sys.stderr)


def _recorded(argv: list[str]) -> dict[str, Any]:
    """The snapshot's record of a default start's answers (``start_record``); {} when it has none or
    it cannot be read (the start only loses its speed)."""
    from apiatlas.server.start_record import recorded_answers

    try:
        return recorded_answers(argv)
    except Exception as exc:
        print(f"apiatlas: the snapshot's first answers not read ({exc})", file=sys.stderr)
        return {}


# what a client is told when a list it got from the prelude turns out to have changed
_CHANGED = {
    "tools/list": "notifications/tools/list_changed",
    "prompts/list": "notifications/prompts/list_changed",
    "resources/list": "notifications/resources/list_changed",
    "resources/templates/list": "notifications/resources/list_changed",
}


def _response(line: str) -> dict[str, Any] | None:
    """The line as a JSON-RPC response (an id, no method), else None (a request or notification of
    the server's own, whose id is the server's and must not match a client's)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if isinstance(message, dict) and "id" in message and "method" not in message:
        return message
    return None


_current: StdioStart | None = None


def begin(argv: list[str]) -> None:
    """At the start of ``apiatlas serve ARGS`` (the installed script): take the wire and, when this
    start's answers are held, answer them from the first request on. Not for HTTP, nor when turned off."""
    global _current
    if turned_off() or not _serves_stdio(argv):
        return
    try:
        _current = StdioStart(start_key(argv), argv)
    except Exception as exc:  # the start only loses its speed
        print(f"apiatlas: no fast stdio start ({exc})", file=sys.stderr)


def turned_off() -> bool:
    """``APIATLAS_STDIO_START=off`` (or 0, no): no held answers used or recorded, none kept in a snapshot."""
    return os.environ.get(OFF_ENV, "").lower() in ("off", "0", "no")


def _serves_stdio(argv: list[str]) -> bool:
    if "--help" in argv or "--transport=http" in argv:
        return False
    return not any(a == "--transport" and b == "http" for a, b in itertools.pairwise(argv))


def current() -> StdioStart | None:
    """This process's stdio start (None without :func:`begin`: in tests, ``python -m apiatlas.cli``)."""
    return _current
