"""Entity-card text an embedding model reads for an API, and the compact int8 vector blob format."""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from apiatlas.catalog.actions import HTTP_METHODS, http_action
from apiatlas.catalog.model import Api
from apiatlas.text import split_identifier

# the longest card text embedded (characters): cost grows with tokens, meaning sits up front
CARD_CHARS = 320
VECTOR_SCALE = 127.0  # L2-normalised components lie in [-1, 1]: int8 = round(x * 127)

_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def readable_name(identifier: str) -> str:
    """``Ord_FindListByName`` -> ``Ord Find List By Name`` (a leading "API" word left out);
    ``GET /book/{id}`` -> ``GET book id``."""
    words: list[str] = []
    for raw in _WORD.findall(identifier):
        if raw.upper() == "API" and not words:
            continue
        words.extend(split_identifier(raw))
    return " ".join(words)


def card_text(api: Api, object_title: str = "") -> str:
    """One short passage: readable name (its HTTP method said as the action, ``list v 1 customers``),
    business object, title, description start, when to use."""
    own = api.extra.get("card_name")  # a source's own readable name wins; it says the object too
    name = readable_name(str(own or api.key))
    action = http_action(api)
    method, _, rest = name.partition(" ")
    if action and method.upper() in HTTP_METHODS:
        name = f"{action} {rest}"
    parts = [name]
    if object_title and not own:
        parts.append(object_title)
    if api.title:
        parts.append(api.title)
    if written := api.written_texts():  # a model's search hints (enrichment), before the long description
        parts.append("; ".join(written))
    if api.description and api.description != api.title:
        parts.append(api.description)
    if api.overlay is not None and api.overlay.when_to_use:
        parts.append(" ".join(api.overlay.when_to_use))
    kept: list[str] = []
    flats: list[str] = []
    for part in parts:
        part = _SPACES.sub(" ", part).strip().rstrip(".")
        for earlier in flats:  # a description that opens with the title: only what it adds
            part = _without_opening(part, earlier)
        flat = _flat(part)
        if flat and flat not in " ".join(flats):
            kept.append(part)
            flats.append(flat)
    return ". ".join(kept)[:CARD_CHARS]


def _flat(text: str) -> str:
    return " ".join(w.lower() for w in _WORD.findall(text))


def _without_opening(part: str, opening: str) -> str:
    """``part`` after its first words when they are ``opening``'s (compared as lower-case words);
    ``part`` unchanged otherwise, or when nothing would be left."""
    count = len(opening.split())
    found = list(_WORD.finditer(part))
    if len(found) <= count or " ".join(m.group(0).lower() for m in found[:count]) != opening:
        return part
    return part[found[count - 1].end() :].lstrip(" .,;:-—").strip()


def to_blob(vector: npt.NDArray[np.float32]) -> bytes:
    """int8 bytes of an L2-normalised vector (384 bytes for e5-small)."""
    return bytes(np.clip(np.rint(vector * VECTOR_SCALE), -127, 127).astype(np.int8).tobytes())


def matrix_from_blobs(blobs: list[bytes], dim: int) -> npt.NDArray[np.float32]:
    """The float32 matrix (rows re-normalised) of int8 blobs, ready for one matrix-vector product."""
    if not blobs:
        return np.zeros((0, dim), dtype=np.float32)
    raw = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), dim).astype(np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: npt.NDArray[np.float32] = (raw / norms).astype(np.float32)
    return out
