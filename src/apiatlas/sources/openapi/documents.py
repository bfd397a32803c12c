"""Read spec files (JSON or YAML) and follow ``$ref`` strings across files by JSON pointer."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml

from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.sources.confine import confined_path

SPEC_SUFFIXES = (".json", ".yaml", ".yml")

try:  # libyaml is ten times faster on multi-megabyte specs
    _YamlLoader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _YamlLoader = yaml.SafeLoader


def parse_spec_text(text: str, where: Location) -> Any:
    """JSON when the text starts like JSON, YAML otherwise; SourceError with the line on bad syntax."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if not where.file or where.file.endswith(".json"):
                raise SourceError(
                    f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
                    location=where.model_copy(update={"line": exc.lineno}),
                ) from exc
    try:
        return yaml.load(text, Loader=_YamlLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        raise SourceError(
            f"invalid YAML: {exc.problem or exc}", location=where.model_copy(update={"line": line})
        ) from exc
    except yaml.YAMLError as exc:
        raise SourceError(f"invalid YAML: {exc}", location=where) from exc


def check_spec_syntax(path: Path) -> None:
    """For a file no source kind recognises: a located SourceError when it is a JSON or YAML file that
    does not parse (a truncated spec says where it broke instead of "not a source")."""
    path = Path(path)
    if not path.is_file() or path.suffix.lower() not in SPEC_SUFFIXES:
        return
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return
    parse_spec_text(text, Location(file=path.name))


@dataclass(frozen=True, slots=True)
class Target:
    """What a ``$ref`` points at: the node, the file it lives in and its canonical ``file#pointer``."""

    node: Any
    file: Path
    ref: str

    @property
    def name(self) -> str:
        """The last pointer segment (a schema name such as ``customer``)."""
        return self.ref.rsplit("/", 1)[-1]


@dataclass
class SpecDocuments:
    """The root spec and every file it refers to, each read once (relative ``$ref`` paths)."""

    root_file: Path
    files: dict[Path, Any] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)  # path relative to the root's folder -> sha256

    @classmethod
    def open(cls, path: Path) -> SpecDocuments:
        docs = cls(root_file=Path(path).resolve())
        docs.document(docs.root_file, Location(file=path.name))
        return docs

    @property
    def root(self) -> Any:
        return self.files[self.root_file]

    def relative(self, path: Path) -> str:
        """``path`` relative to the root spec's folder (``../shared/x.yaml`` in a folder the build config
        allows), so the snapshot does not depend on where the folders are."""
        try:
            return path.relative_to(self.root_file.parent).as_posix()
        except ValueError:
            return Path(os.path.relpath(path, self.root_file.parent)).as_posix()

    def document(self, path: Path, where: Location) -> Any:
        """The parsed content of ``path`` (read on first use)."""
        if path in self.files:
            return self.files[path]
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise SourceError(
                f"cannot read spec file {path.name}: {exc.strerror or exc}",
                code=ReasonCode.DANGLING_REFERENCE,
                location=where,
            ) from exc
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SourceError(
                f"{path.name} is not UTF-8 ({exc.reason})",
                code=ReasonCode.UNDECODABLE_FILE,
                location=Location(file=self.relative(path)),
            ) from exc
        self.files[path] = parse_spec_text(text, Location(file=self.relative(path)))
        self.hashes[self.relative(path)] = hashlib.sha256(raw).hexdigest()
        return self.files[path]

    def resolve(self, ref: str, base: Path, where: Location) -> Target:
        """Follow a ``$ref`` written in ``base``; SourceError(DANGLING_REFERENCE) when it leads nowhere.

        Only files inside the root spec's folder (and the build config's ``ref_folders``) are read: a
        URL, an absolute path, a ``..`` escape or a symlink out is SourceError(REF_OUTSIDE_SOURCE).
        """
        file_part, _, pointer = ref.partition("#")
        roots = [self.root_file.parent]
        target_file = confined_path(unquote(file_part), base.parent, roots, where) if file_part else base
        node = self.document(target_file, where)
        for part in pointer.split("/")[1:] if pointer else []:
            key = unquote(part).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                raise SourceError(
                    f"$ref {ref!r} points nowhere: no {key!r} in {self.relative(target_file)}",
                    code=ReasonCode.DANGLING_REFERENCE,
                    location=where,
                )
        canonical = (
            f"#{pointer}" if target_file == self.root_file else f"{self.relative(target_file)}#{pointer}"
        )
        return Target(node=node, file=target_file, ref=canonical)
