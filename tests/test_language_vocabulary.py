"""A catalog's own words: derived from its paths at build time, amended by the config, in the snapshot."""

from __future__ import annotations

import json
from pathlib import Path

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Api
from apiatlas.language.catalog import CatalogVocabulary, derive_vocabulary
from apiatlas.language.words import FUNCTION_WORDS, PLAIN_WORDS
from apiatlas.snapshot import Snapshot
from apiatlas.text import function_stems


def _apis(*keys: str) -> list[Api]:
    return [Api(key=k, object_key="") for k in keys]


def test_kinds_are_the_resources_an_identifier_follows() -> None:
    vocabulary = derive_vocabulary(
        _apis(
            "GET /v1/libraries/{library_id}", "GET /v1/libraries/{library_id}/floors/{floor_number}",
            "GET /v1/boxes/{box}", "GET /v1/ranked/{time_window}", "GET /v1/search/books", "POST /v1/loans",
        )
    )  # fmt: skip
    assert vocabulary.kinds == ["box", "library"]  # a choice ({time_window}) and a bare collection are none
    assert vocabulary.kind_words == {"boxes": "box", "libraries": "library"}
    assert vocabulary.parts == {"floor": "library"}  # a numbered part of the thing before it
    assert derive_vocabulary(_apis("usp_Order_FindByID")).kinds == []  # procedures: no paths, no kinds


def test_the_config_replaces_the_kinds_and_adds_words() -> None:
    derived = CatalogVocabulary(kinds=["box", "library"], kind_words={"boxes": "box", "libraries": "library"})
    given = CatalogVocabulary(
        kinds=["library"], kind_words={"archive": "library"}, expansions={"tome": "book"}
    )
    amended = derived.amended(given)
    assert amended.kinds == ["library"]
    assert amended.kind_words == {"libraries": "library", "archive": "library"}
    assert amended.naming["archive"] == "library" and "box" not in amended.naming
    assert amended.expansion("tomes") == "book"  # by the stem of the word it is written for


def test_the_vocabulary_is_compiled_into_the_snapshot(tmp_path: Path) -> None:
    rack = {
        "get": {
            "operationId": "getRack",
            "parameters": [
                {"name": "rack_id", "in": "path", "required": True, "schema": {"type": "integer"}}
            ],
            "responses": {"200": {"description": "ok"}},
        }
    }
    spec = tmp_path / "spec.json"
    document = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/racks/{rack_id}": rack},
    }
    spec.write_text(json.dumps(document), encoding="utf-8")
    config = tmp_path / "apiatlas.yaml"
    config.write_text("embeddings: none\nvocabulary:\n  expansions:\n    stand: rack\n", encoding="utf-8")
    out = tmp_path / "t.atlas"
    compile_docs(spec, overlays_dir=None, config_path=config, out=out, write_report=False)
    with Snapshot.open(out) as snap:
        vocabulary = snap.vocabulary()
    assert vocabulary.kinds == ["rack"] and vocabulary.expansions == {"stand": "rack"}


def test_one_list_of_function_words_serves_search_and_planning() -> None:
    assert FUNCTION_WORDS <= PLAIN_WORDS
    assert "the" in FUNCTION_WORDS and "find" in PLAIN_WORDS and "find" not in FUNCTION_WORDS
    assert "the" in function_stems()
