"""BuildConfig: defaults, YAML loading, located errors, a stable JSON dump."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.passes.config import BuildConfig
from apiatlas.sources.bank_html.domain_types import BANK_TYPES


def test_neutral_defaults_keep_every_api_and_alias_nothing() -> None:
    config = BuildConfig.load(None)
    assert config.funnel == [] and config.aliases == [] and not config.description_aliases
    assert BuildConfig.for_source("a_kind_nobody_registered") == config


def test_the_bank_format_brings_the_four_stage_funnel() -> None:
    config = BuildConfig.load(None, source_kind="bank_html")
    assert [(r.field, r.operator) for r in config.funnel] == [
        ("key", "matches"),
        ("approved", "equals"),
        ("implemented", "equals"),
        ("forbidden", "not_equals"),
    ]
    assert "DSIDENTIFIER" in config.generic_types and "DSACCNUMBER" not in config.generic_types
    assert "DSVARFULLNAME" in config.user_value_types and "DSIDENTIFIER" not in config.user_value_types
    assert config.is_generic("DSMONEY", BANK_TYPES) and not config.is_generic("DSISIN", BANK_TYPES)
    assert config.is_generic("DSNEVERHEARDOF", BANK_TYPES)  # unknown meaning: never linked by type alone


def test_yaml_overrides_and_dump_is_stable_json(tmp_path: Path) -> None:
    path = tmp_path / "build.yaml"
    path.write_text(
        "funnel:\n"
        "  - {name: only_find, field: key, operator: matches, value: '_Find'}\n"
        "  - {name: reads, field: side_effect, operator: in, value: [read]}\n"
        "aliases:\n"
        "  - {consumer_field: HolderID, producer_field: PersonID}\n"
        "specific_types: [DSCUSTOMNUMBER]\n"
        "max_type_only_edges_per_field: 3\n",
        encoding="utf-8",
    )
    config = BuildConfig.load(path)
    assert [r.name for r in config.funnel] == ["only_find", "reads"]
    assert config.max_type_only_edges_per_field == 3
    assert not config.is_generic("DSCUSTOMNUMBER")
    dumped = json.dumps(config.options(), sort_keys=True, ensure_ascii=False)
    again = json.dumps(BuildConfig.load(path).options(), sort_keys=True, ensure_ascii=False)
    assert dumped == again
    assert json.loads(dumped)["aliases"] == [{"consumer_field": "HolderID", "producer_field": "PersonID"}]


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    assert BuildConfig.load(path) == BuildConfig()


def test_missing_file_is_a_located_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        BuildConfig.load(tmp_path / "nope.yaml")
    assert info.value.code is ReasonCode.BAD_CONFIG
    assert info.value.location.file == str(tmp_path / "nope.yaml")


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("funnel:\n  - name: a\n  - [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        BuildConfig.load(path)
    assert info.value.location.line is not None and info.value.location.line >= 3


@pytest.mark.parametrize(
    ("text", "anchor_start"),
    [
        ("max_type_only_edges_per_field: -1\n", "max_type_only_edges_per_field"),
        ("unknown_option: 1\n", "unknown_option"),
        ("funnel:\n  - {name: x, field: colour, operator: equals, value: red}\n", "funnel.0.field"),
        ("funnel:\n  - {name: x, field: key, operator: matches, value: '(unclosed'}\n", "funnel.0"),
        ("funnel:\n  - {name: x, field: key, operator: in, value: API_A}\n", "funnel.0"),
    ],
)
def test_invalid_values_are_config_errors_with_the_option_path(
    tmp_path: Path, text: str, anchor_start: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        BuildConfig.load(path)
    assert info.value.location.file == str(path)
    assert (info.value.location.anchor or "").startswith(anchor_start)


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="mapping"):
        BuildConfig.load(path)
