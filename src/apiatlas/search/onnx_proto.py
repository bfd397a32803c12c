"""The few ONNX protobuf messages an encoder graph needs, written as bytes (no ``onnx`` package).

onnxruntime reads a serialised ``ModelProto``; building one takes nodes, initializers, typed inputs
and outputs and the opsets, so the message fields are written here directly (field numbers of
``onnx.proto``, protobuf wire format: varints, length-delimited fields, fixed32 floats).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

FLOAT, UINT8, INT8, INT64 = 1, 2, 3, 7  # TensorProto.DataType
_DTYPES = {
    np.dtype(np.float32): FLOAT,
    np.dtype(np.uint8): UINT8,
    np.dtype(np.int8): INT8,
    np.dtype(np.int64): INT64,
}
IR_VERSION = 8  # the IR of opset 17


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64 as two's complement, as protobuf writes it
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode("utf-8"))


def tensor(name: str, array: npt.NDArray[np.generic]) -> bytes:
    """A ``TensorProto`` (an initializer) holding ``array``'s bytes, little-endian."""
    data = np.asarray(array, order="C")  # not ascontiguousarray: it makes a scalar one-dimensional
    dims = b"".join(_int(1, d) for d in data.shape)
    return (
        dims
        + _int(2, _DTYPES[data.dtype])
        + _text(8, name)
        + _bytes(9, data.astype(data.dtype.newbyteorder("<")).tobytes())
    )


def node(
    op: str, inputs: Sequence[str], output: str, *, domain: str = "", **attrs: int | float | list[int]
) -> bytes:
    """A ``NodeProto`` with one output (named as the node) and int, float or ints attributes."""
    out = b"".join(_text(1, i) for i in inputs) + _text(2, output) + _text(3, output) + _text(4, op)
    for key, value in attrs.items():
        if isinstance(value, list):
            body = _text(1, key) + b"".join(_int(8, v) for v in value) + _int(20, 7)
        elif isinstance(value, float):
            body = _text(1, key) + _varint(2 << 3 | 5) + struct.pack("<f", value) + _int(20, 1)
        else:
            body = _text(1, key) + _int(3, value) + _int(20, 2)
        out += _bytes(5, body)
    return out + (_text(7, domain) if domain else b"")


def value_info(name: str, elem_type: int, dims: Sequence[int | str]) -> bytes:
    """A ``ValueInfoProto``: a graph input or output with its element type and (symbolic) dims."""
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _text(2, d)) for d in dims)
    return _text(1, name) + _bytes(2, _bytes(1, _int(1, elem_type) + _bytes(2, shape)))


def model(
    nodes: Sequence[bytes],
    initializers: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    opsets: dict[str, int],
) -> bytes:
    """A serialised ``ModelProto`` of one graph."""
    graph = (
        b"".join(_bytes(1, n) for n in nodes)
        + _text(2, "graph")
        + b"".join(_bytes(5, t) for t in initializers)
        + b"".join(_bytes(11, i) for i in inputs)
        + b"".join(_bytes(12, o) for o in outputs)
    )
    opset = b"".join(_bytes(8, (_text(1, d) if d else b"") + _int(2, v)) for d, v in opsets.items())
    return _int(1, IR_VERSION) + _text(2, "apiatlas") + _bytes(7, graph) + opset
