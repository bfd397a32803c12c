"""``apiatlas export``: one JSON file per business object, API and session table, for review in git."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Annotated, Any

import typer

from apiatlas import atomic
from apiatlas.cli_app import app
from apiatlas.errors import SnapshotError
from apiatlas.snapshot.reader import Snapshot

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(key: str) -> str:
    """A stable, portable file name for an entity key.

    Safe keys are kept (``Orders_FindByID.json``); others are cleaned and get a short hash of the
    key so two keys never share a file (``GET /person/{id}`` -> ``GET_person_id-1a2b3c4d.json``).
    """
    safe = _UNSAFE.sub("_", key).strip("_")
    if safe == key:
        return key + ".json"
    return f"{safe or '_'}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:8]}.json"


def export_snapshot(snap: Snapshot, out: Path) -> dict[str, int]:
    """Write ``objects/``, ``apis/``, ``tables/`` and ``manifest.json`` under ``out``; return counts."""
    for folder in ("objects", "apis", "tables"):
        shutil.rmtree(out / folder, ignore_errors=True)
        (out / folder).mkdir(parents=True)
    _write(out / "manifest.json", snap.manifest())
    counts = {"objects": 0, "apis": 0, "tables": 0}
    for key in snap.object_api_counts():  # every object, also those without kept APIs
        obj = snap.get_object(key)
        if obj is not None:
            _write(out / "objects" / file_name(obj.key), obj.model_dump(mode="json"))
            counts["objects"] += 1
    for key in snap.all_api_keys(include_dropped=True):
        api = snap.get_api(key)
        if api is None:
            continue
        _write(out / "apis" / file_name(api.key), api.model_dump(mode="json"))
        counts["apis"] += 1
        for table in [*api.input_tables, *api.output_tables]:
            name = file_name(f"{api.key}.{table.direction.value}.{table.name}")
            _write(out / "tables" / name, {"api": api.key, **table.model_dump(mode="json")})
            counts["tables"] += 1
    return counts


def _write(path: Path, data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    atomic.write_text(path, text, encoding="utf-8", newline="\n")


@app.command("export")
def export_command(
    snapshot: Annotated[Path, typer.Argument(help="The snapshot file (*.atlas).")],
    out: Annotated[Path, typer.Argument(help="Folder to write objects/, apis/, tables/ into.")],
) -> None:
    """Write one JSON file per business object, API and session table of a snapshot (sorted keys, UTF-8)."""
    try:
        with Snapshot.open(snapshot) as snap:
            counts = export_snapshot(snap, out)
    except SnapshotError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    typer.echo(
        f"Wrote {counts['objects']} objects, {counts['apis']} APIs, {counts['tables']} tables to {out}"
    )
