"""What the index pass embeds with and the search settings a compile records: decided (and checked) from
the build config and the flags before anything is parsed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from apiatlas.errors import ConfigError
from apiatlas.passes.config import BuildConfig
from apiatlas.search.embedding import EmbeddingProvider, provider_from_spec
from apiatlas.search.tuning import CALIBRATED, FusionSettings


@dataclass(frozen=True)
class SearchInputs:
    """What the index pass embeds with, decided (and checked) before anything is parsed."""

    provider: EmbeddingProvider | None
    settings: FusionSettings
    settings_path: Path | None
    settings_sha: str | None


def search_inputs(config_path: Path | None, embeddings: str | None, flag: Path | None) -> SearchInputs:
    """The embedding provider and search settings, failing early on a bad config, model or settings file."""
    config = BuildConfig.load(config_path)
    provider = provider_from_spec(embeddings if embeddings is not None else config.embeddings)
    path = search_settings_path(flag, config, config_path)
    settings = load_search_settings(path, from_config=flag is None, config=config_path)
    return SearchInputs(
        provider, settings, path, hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None
    )


def search_settings_path(flag: Path | None, config: BuildConfig, config_path: Path | None) -> Path | None:
    """The search settings file to use: the flag's (as given), else the config's (relative to the config
    file), else None (the shipped settings)."""
    if flag is not None:
        return Path(flag)
    if config.search_settings is None:
        return None
    named = Path(config.search_settings)
    return named if named.is_absolute() or config_path is None else config_path.parent / named


def load_search_settings(path: Path | None, *, from_config: bool, config: Path | None) -> FusionSettings:
    """``FusionSettings.from_file(path)`` (``CALIBRATED`` for None); an error on a file named by the
    build config says so."""
    if path is None:
        return CALIBRATED
    try:
        return FusionSettings.from_file(path)
    except ConfigError as exc:
        if not from_config or config is None:
            raise
        raise ConfigError(
            f"{exc.message} (the search_settings of {config})", code=exc.code, location=exc.location
        ) from exc
