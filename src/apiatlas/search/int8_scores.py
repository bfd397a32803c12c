"""Every card's cosine to a query from the snapshot's int8 card vectors, by onnxruntime's 8-bit product.

The card vectors are stored as int8 codes (``round(x * 127)``); the float32 matrix made of them is
4x their bytes (154 MB at 100,000 cards), and reading it once per query was the dense side's cost.
Here the codes stay int8 (the product's weight, packed once) and the query is written as two int8
rows, its codes at ``step = max|q| / 127`` and the codes of what they leave over at a step 254 times
finer, so one ``MatMulInteger`` (both rows against the matrix, read once; AVX-512 VNNI or AVX2
kernels) gives integer sums that, scaled and divided by each card's norm, are the cosines to within
``bound`` (the finer step's half, times the largest L1/L2 ratio of a card: ~1e-4).

:class:`~apiatlas.search.vectors.CardVectors` ranks by these and scores the cards that could be in
the best ones again exactly (the float32 product of those rows), so the candidates and their
cosines are what the float32 matrix gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.search import onnx_proto as px

Int8s = npt.NDArray[np.int8]
Floats = npt.NDArray[np.float32]
FINER = 254.0  # the second row's step is the first's over this (its codes lie in [-127, 127])
SLACK = 1e-5  # float32 rounding of the scaled sums and of the exact rescoring, with room to spare
ZERO = 128  # the query rows' zero point (uint8 codes 1..255)
INT32 = 6  # TensorProto.DataType of the sums


class Int8Scores:
    """Approximate cosines of a query to every row of an int8 matrix (one onnxruntime session)."""

    def __init__(self, codes: Int8s, norms: Floats, ort: Any) -> None:
        rows, dim = codes.shape
        self.inverse = (1.0 / norms.astype(np.float64)).astype(np.float32)
        # the largest ||row||_1 / ||row||_2, summed on the int8 codes (|code| <= 127: no overflow, exact)
        l1 = np.abs(codes).sum(axis=1, dtype=np.int32)
        self.l1_ratio = float((l1.astype(np.float32) / norms).max()) if rows else 0.0
        nodes = [px.node("MatMulInteger", ["query", "cards", "zero_u8", "zero_i8"], "sums")]
        initializers = [
            px.tensor("cards", np.ascontiguousarray(codes.T)),  # (dim, rows): the product's weight
            px.tensor("zero_u8", np.array(ZERO, np.uint8)),
            px.tensor("zero_i8", np.array(0, np.int8)),
        ]
        graph = px.model(
            nodes,
            initializers,
            [px.value_info("query", px.UINT8, [2, dim])],
            [px.value_info("sums", INT32, [2, rows])],
            {"": 17},
        )
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one core per search: concurrent searches share the session
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])

    def scores(self, vector: Floats) -> tuple[Floats, float]:
        """Every row's cosine to ``vector`` (L2-normalised), each within the returned bound."""
        q = vector.astype(np.float32).reshape(-1)
        step = float(np.abs(q).max()) / 127.0 or 1.0
        first = np.clip(np.rint(q / step), -127, 127)
        fine = step / FINER
        second = np.clip(np.rint((q - first * step) / fine), -127, 127)
        query = (np.vstack([first, second]) + ZERO).astype(np.uint8)
        sums = self.session.run(None, {"query": query})[0]
        cosines = (sums[0] * step + sums[1] * fine).astype(np.float32) * self.inverse
        leftover = float(np.abs(q - first * step - second * fine).max())
        return cosines, leftover * self.l1_ratio + SLACK


def int8_scores(codes: Int8s, norms: Floats) -> Int8Scores | None:
    """The 8-bit product of ``codes`` (None without onnxruntime, or when it cannot build the graph:
    the float32 matrix is used then)."""
    from apiatlas.search.e5_int8 import onnxruntime_module

    ort = onnxruntime_module()
    if ort is None:
        return None
    try:
        return Int8Scores(codes, norms, ort)
    except Exception:  # onnxruntime's own errors (an old version without the operator)
        return None
