"""A verb made from a noun does what makes one ("Bookmark …": ``POST /bookmarks``), but a path ending in
the verb itself is an action on a thing, no collection of them: "Delete the hook …" is no create of a
"delete" (``POST /v1/vaults/secrets/delete`` is not the only target left)."""

from __future__ import annotations

from apiatlas.planning.kind_verbs import noun_creates


def test_a_path_ending_in_the_verb_creates_nothing() -> None:
    hits = ["POST /v1/vaults/secrets/delete", "DELETE /v1/hooks/{hook}"]
    assert noun_creates(hits, "delete") == hits


def test_a_plural_collection_is_what_a_verb_made_from_its_noun_creates() -> None:
    hits = ["DELETE /bookmarks/{bookmark_id}", "POST /bookmarks"]
    assert noun_creates(hits, "bookmark") == ["POST /bookmarks"]
