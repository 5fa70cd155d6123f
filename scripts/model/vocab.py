"""Which SentencePiece pieces the shipped model keeps.

The word-embedding table is most of the model (250k rows x 384), and the app
only needs Greek, Danish, Chinese and English. Pruning by piece score would
drop Greek pieces (their scores are low), so pieces are kept by use:

- every piece the pools' texts (documents and queries) tokenize to;
- a reserve for text the pools do not contain (users' own queries):
  - every piece made only of Greek or CJK letters, digits, punctuation and
    symbols (all the Greek and Chinese the model knows);
  - every single-character piece of those scripts and of Latin, so any such
    text still tokenizes without `<unk>`;
  - the pieces of wordfreq's most frequent Danish and English words, each
    lower-case and capitalised;
- the lowest-scored piece, so the Unigram `<unk>` penalty (min score - 10)
  is unchanged.

Text whose full-vocabulary tokens are all kept tokenizes identically with the
pruned vocabulary: Viterbi's best path survives and no new path appears.
"""

from __future__ import annotations

import unicodedata

import wordfreq

RESERVE_LANGS = {"da": 50_000, "en": 50_000}
RULE = (
    "pieces the pools' texts use, plus every piece made only of Greek or CJK letters, digits, "
    "punctuation and symbols, every single-character Latin/Greek/CJK piece, the pieces of "
    "wordfreq's top 50k Danish and English words (lower-case and capitalised), and the "
    "lowest-scored piece (scripts/model/vocab.py)"
)


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    for script in ("LATIN", "GREEK", "CJK"):
        if name.startswith(script):
            return script
    return "COMMON" if unicodedata.category(ch)[0] in "PSNZ" else "OTHER"


def reserve(pieces: list[str], scores, tokenize) -> dict[str, set[int]]:
    """The reserve's ids by reason. `tokenize(list[str]) -> list[list[int]]`
    runs the full-vocabulary tokenizer without special tokens."""
    whole_script, single = set(), set()
    for i, piece in enumerate(pieces[4:], start=4):
        body = piece.replace("▁", "")
        scripts = {_script(ch) for ch in body}
        if not scripts or "OTHER" in scripts:
            continue
        if "LATIN" not in scripts:
            whole_script.add(i)
        if len(body) == 1:
            single.add(i)
    words = set()
    for lang, n in RESERVE_LANGS.items():
        top = wordfreq.top_n_list(lang, n)
        for ids in tokenize(top + [w[:1].upper() + w[1:] for w in top]):
            words.update(ids)
    lowest = min(range(4, len(pieces)), key=lambda i: scores[i])
    return {
        "greek_cjk_common": whole_script,
        "single_characters": single,
        "wordfreq_da_en": words,
        "lowest_score": {lowest},
    }
