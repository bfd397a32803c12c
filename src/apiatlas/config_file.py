"""Reading a YAML configuration file into a pydantic model; every problem is a located ConfigError."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from apiatlas.errors import ConfigError, Location

M = TypeVar("M", bound=BaseModel)


def read_config_text(path: Path, what: str) -> str:
    """The text of a configuration file; a missing or unreadable one is a ConfigError naming ``what``."""
    where = Location(file=str(path))
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{what} not found", location=where) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {what}: {exc}", location=where) from exc


def load_yaml_model(
    model: type[M], path: Path, *, what: str, shape: str = "a mapping", empty: M | None = None
) -> M:
    """``model`` validated from the YAML at ``path``; ``empty`` (when given) stands for an empty file."""
    import yaml  # loaded by the first config file read (a server started without one never needs it)

    where = Location(file=str(path))
    text = read_config_text(path, what)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", location=where) from exc
    if data is None and empty is not None:
        return empty
    if not isinstance(data, dict):
        raise ConfigError(f"the {what} must be {shape}", location=where)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        paths = [".".join(str(p) for p in err["loc"]) for err in errors]
        problems = "; ".join(f"{at}: {err['msg']}" for at, err in zip(paths, errors, strict=True))
        raise ConfigError(
            problems, location=Location(file=str(path), anchor=paths[0] if paths else None)
        ) from exc
