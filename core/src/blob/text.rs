//! Display text: each document's text, paragraphs and augmented text, in
//! raw-deflate blocks of consecutive documents.
//!
//! Deflate (`miniz_oxide`, level 9) over ~64 KiB blocks was measured on the
//! Danish acts (4,253 §§, 3.45 MB): 0.85 MB, against 1.39 MB for LZ4
//! (`lz4_flex`); inflating every block takes ~6 ms natively against ~1.3 ms,
//! i.e. ~0.1 ms per result shown, so the smaller codec wins. Blocks rather
//! than one stream keep a lookup to one block's work; how large they are
//! depends on who reads them ([`Layout`]).
//!
//! Inside a block, each document is a record of little-endian fields:
//! `flags: u8`, then `text` unless flag [`JOINED`] says the text is the
//! paragraphs joined by `\n`, then `n: u32` and `n` paragraphs, then the
//! augmented text if flag [`AUGMENTED`], then `m: u32` and `m` divisions
//! if flag [`PATH`], then the version date if flag [`VERSION_DATE`]. A
//! string is `len: u32` and UTF-8. An unknown flag is an error: a reader
//! older than a flag refuses the record rather than misread it.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;

use super::format::{ArchivedTextSection, TextSection};
use super::BlobError;

const SECTION: &str = "text";
const LEVEL: u8 = 9;
/// Deflate cannot expand more than ~1032:1; a larger claim is corruption.
const MAX_RATIO: usize = 1100;
/// Most raw bytes one block may hold. Blocks close at 64 KiB at most, so
/// only one document of nearly 16 MiB (no statute comes near) could reach
/// it; the cap bounds what a crafted block makes a reader allocate, which
/// deflate's ratio alone puts at ~1 GiB per MB of blob.
const MAX_BLOCK_RAW: usize = 16 << 20;
/// Most raw bytes all blocks may hold together: every block is inflated
/// (one at a time) when a blob loads, so this bounds the load's work. The
/// Danish acts hold 3.45 MB.
pub(crate) const MAX_TEXT_RAW: u64 = 256 << 20;

/// How a text section is cut, for who reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Most raw bytes in all.
    pub max_total: u64,
    /// A block closes once it holds this many raw bytes.
    pub block_target: usize,
}

impl Layout {
    /// A blob inflates every block on load ([`MAX_TEXT_RAW`] bounds that
    /// work), and its text file is fetched whole: large blocks deflate
    /// best (16 KiB ones add 17.6% to the Danish acts' text file).
    pub const BLOB: Layout = Layout {
        max_total: MAX_TEXT_RAW,
        block_target: 64 * 1024,
    };
    /// A fragmented pool: a reader inflates only the blocks it shows, and
    /// a result row fetches its block's documents fragment, so blocks are
    /// small (a 10⁵-chunk query's top 10 fetches 75 kB brotli instead of
    /// 291 kB with the blob's; docs/benchmarks/fragments.md, "Text blocks of 16 KiB").
    pub const FRAGMENTS: Layout = Layout {
        max_total: u64::MAX,
        block_target: 16 * 1024,
    };
}

/// The text is not stored; it is the paragraphs joined by `\n`.
const JOINED: u8 = 1;
/// An augmented text follows the paragraphs.
const AUGMENTED: u8 = 2;
/// The division path follows.
const PATH: u8 = 4;
/// The version date follows.
const VERSION_DATE: u8 = 8;

/// One document's display text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArticleText {
    /// The indexed text.
    pub text: String,
    /// Paragraphs for display; empty when the text is one block.
    pub paragraphs: Vec<String>,
    /// LLM-augmented text (CRAwLeR-DK), when the source has one.
    pub augmented: Option<String>,
    /// The divisions the document stands in, outermost first (`ΒΙΒΛΙΟ
    /// ΠΡΩΤΟ: ΓΕΝΙΚΕΣ ΑΡΧΕΣ`, `ΚΕΦΑΛΑΙΟ ΠΡΩΤΟ: …`); empty when the source
    /// gives none.
    pub path: Vec<String>,
    /// The date of the version shown, `YYYY-MM-DD`, when the source gives
    /// one.
    pub version_date: Option<String>,
}

/// Borrowed form of [`ArticleText`] for encoding.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArticleTextRef<'a> {
    pub text: &'a str,
    pub paragraphs: &'a [String],
    pub augmented: Option<&'a str>,
    pub path: &'a [String],
    pub version_date: Option<&'a str>,
}

impl ArticleText {
    /// This text, borrowed for encoding again.
    pub(crate) fn borrowed(&self) -> ArticleTextRef<'_> {
        ArticleTextRef {
            text: &self.text,
            paragraphs: &self.paragraphs,
            augmented: self.augmented.as_deref(),
            path: &self.path,
            version_date: self.version_date.as_deref(),
        }
    }
}

/// The text section of `docs`, cut as `layout` says.
pub(crate) fn encode<'a>(
    docs: impl IntoIterator<Item = ArticleTextRef<'a>>,
    layout: Layout,
) -> Result<TextSection, BlobError> {
    let Layout {
        max_total,
        block_target,
    } = layout;
    let too_big = || BlobError::Input("display text exceeds 4 GiB".into());
    let mut section = TextSection {
        block_docs: vec![0],
        block_ends: vec![0],
        raw_lens: Vec::new(),
        data: Vec::new(),
    };
    let mut block = Vec::new();
    let mut n_docs: u32 = 0;
    let flush = |block: &mut Vec<u8>, n_docs: u32, s: &mut TextSection| {
        if block.is_empty() && s.block_docs.last() == Some(&n_docs) {
            return Ok(());
        }
        s.data.extend_from_slice(&compress_to_vec(block, LEVEL));
        s.block_ends
            .push(u32::try_from(s.data.len()).map_err(|_| too_big())?);
        s.raw_lens
            .push(u32::try_from(block.len()).map_err(|_| too_big())?);
        s.block_docs.push(n_docs);
        block.clear();
        Ok(())
    };
    let mut total: u64 = 0;
    for doc in docs {
        if let Some(date) = doc.version_date.filter(|d| !is_iso_date(d)) {
            return Err(BlobError::Input(format!(
                "document {n_docs}: version date \"{date}\" is not YYYY-MM-DD"
            )));
        }
        let before = block.len();
        write_record(&mut block, doc).ok_or_else(too_big)?;
        total += (block.len() - before) as u64;
        if block.len() > MAX_BLOCK_RAW || total > max_total {
            return Err(BlobError::Input(format!(
                "document {n_docs}: display text over the blob's limits \
                 ({} MiB in a block, {} MiB in all)",
                MAX_BLOCK_RAW >> 20,
                max_total >> 20
            )));
        }
        n_docs = n_docs.checked_add(1).ok_or_else(too_big)?;
        if block.len() >= block_target {
            flush(&mut block, n_docs, &mut section)?;
        }
    }
    flush(&mut block, n_docs, &mut section)?;
    Ok(section)
}

fn write_record(out: &mut Vec<u8>, doc: ArticleTextRef<'_>) -> Option<()> {
    let joined = !doc.paragraphs.is_empty() && doc.paragraphs.join("\n") == doc.text;
    let flag = |set: bool, flag: u8| if set { flag } else { 0 };
    out.push(
        flag(joined, JOINED)
            | flag(doc.augmented.is_some(), AUGMENTED)
            | flag(!doc.path.is_empty(), PATH)
            | flag(doc.version_date.is_some(), VERSION_DATE),
    );
    if !joined {
        write_str(out, doc.text)?;
    }
    write_strings(out, doc.paragraphs)?;
    if let Some(aug) = doc.augmented {
        write_str(out, aug)?;
    }
    if !doc.path.is_empty() {
        write_strings(out, doc.path)?;
    }
    if let Some(date) = doc.version_date {
        write_str(out, date)?;
    }
    Some(())
}

/// `YYYY-MM-DD`, digits where digits go (the calendar is not checked).
fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

fn write_str(out: &mut Vec<u8>, s: &str) -> Option<()> {
    out.extend_from_slice(&u32::try_from(s.len()).ok()?.to_le_bytes());
    out.extend_from_slice(s.as_bytes());
    Some(())
}

/// A count, then the strings ([`Reader::strings`]).
fn write_strings(out: &mut Vec<u8>, strings: &[String]) -> Option<()> {
    out.extend_from_slice(&u32::try_from(strings.len()).ok()?.to_le_bytes());
    strings.iter().try_for_each(|s| write_str(out, s))
}

impl ArchivedTextSection {
    /// How many compressed blocks the text is in.
    pub fn n_blocks(&self) -> usize {
        self.raw_lens.len()
    }

    /// The bytes the blocks claim to inflate to, all together.
    pub fn raw_bytes(&self) -> u64 {
        self.raw_lens.iter().map(|l| u64::from(l.to_native())).sum()
    }

    /// Checks the block tables, then inflates and parses every block, so
    /// that later lookups cannot fail.
    pub fn validate(&self, n_docs: usize) -> Result<(), BlobError> {
        let n = self.n_blocks();
        let bad = |msg: String| Err(BlobError::invalid(SECTION, msg));
        if self.block_docs.len() != n + 1 || self.block_ends.len() != n + 1 {
            return bad(format!("block tables disagree on {n} blocks"));
        }
        let docs: Vec<usize> = self
            .block_docs
            .iter()
            .map(|d| d.to_native() as usize)
            .collect();
        let ends: Vec<usize> = self
            .block_ends
            .iter()
            .map(|e| e.to_native() as usize)
            .collect();
        if docs[0] != 0 || docs[n] != n_docs || docs.windows(2).any(|w| w[1] <= w[0]) {
            return bad("block document ranges are not increasing over all documents".into());
        }
        if ends[0] != 0 || ends[n] != self.data.len() || ends.windows(2).any(|w| w[1] < w[0]) {
            return bad("block byte ranges do not tile the data".into());
        }
        // Every claim is checked before anything is inflated.
        for b in 0..n {
            self.claimed(b)?;
        }
        let total = self.raw_bytes();
        if total > MAX_TEXT_RAW {
            return bad(format!(
                "the blocks claim {total} bytes of text; at most {} MiB is allowed",
                MAX_TEXT_RAW >> 20
            ));
        }
        for b in 0..n {
            let raw = self.inflate(b)?;
            let mut reader = Reader(&raw);
            for doc in docs[b]..docs[b + 1] {
                reader
                    .record()
                    .map_err(|e| BlobError::invalid(SECTION, format!("document {doc}: {e}")))?;
            }
            if !reader.0.is_empty() {
                return bad(format!(
                    "block {b}: {} trailing bytes after its last document",
                    reader.0.len()
                ));
            }
        }
        Ok(())
    }

    /// Document `doc`'s text, or an error if `doc` is out of range or the
    /// block is damaged (impossible once [`Self::validate`] passed).
    /// Inflates its block every time; `Blob::article` keeps blocks.
    pub fn article(&self, doc: usize) -> Result<ArticleText, BlobError> {
        let (block, first) = self.block_of(doc)?;
        self.inflate_block(block)?.article(doc - first)
    }

    /// The block holding document `doc`, and the block's first document.
    pub(super) fn block_of(&self, doc: usize) -> Result<(usize, usize), BlobError> {
        let last = self.block_docs.len().saturating_sub(1);
        let block = self.block_docs[..last].partition_point(|d| d.to_native() as usize <= doc);
        match block.checked_sub(1) {
            Some(b) if doc < self.block_docs[last].to_native() as usize => {
                Ok((b, self.block_docs[b].to_native() as usize))
            }
            _ => Err(BlobError::invalid(SECTION, format!("no document {doc}"))),
        }
    }

    /// Block `block` inflated, with where each of its records starts.
    pub(super) fn inflate_block(&self, block: usize) -> Result<InflatedBlock, BlobError> {
        let raw = self.inflate(block)?;
        let docs = self
            .block_docs
            .get(block + 1)
            .zip(self.block_docs.get(block))
            .map_or(0, |(end, start)| {
                (end.to_native() as usize).saturating_sub(start.to_native() as usize)
            });
        let mut starts = Vec::with_capacity(docs);
        let mut reader = Reader(&raw);
        for _ in 0..docs {
            starts.push((raw.len() - reader.0.len()) as u32);
            reader
                .record()
                .map_err(|e| BlobError::invalid(SECTION, format!("block {block}: {e}")))?;
        }
        Ok(InflatedBlock { raw, starts })
    }

    /// Block `block`'s deflated bytes and the size it claims inflated,
    /// refused if the claim is over [`MAX_BLOCK_RAW`] or more than deflate
    /// can expand the bytes to.
    fn claimed(&self, block: usize) -> Result<(&[u8], usize), BlobError> {
        let range = (|| {
            let start = self.block_ends.get(block)?.to_native() as usize;
            let end = self.block_ends.get(block + 1)?.to_native() as usize;
            self.data.get(start..end)
        })();
        let raw_len = self.raw_lens.get(block).map(|l| l.to_native() as usize);
        let (Some(bytes), Some(raw_len)) = (range, raw_len) else {
            return Err(BlobError::invalid(SECTION, format!("no block {block}")));
        };
        if raw_len > MAX_BLOCK_RAW {
            return Err(BlobError::invalid(
                SECTION,
                format!(
                    "block {block} claims {raw_len} bytes of text; a block holds at most {} MiB",
                    MAX_BLOCK_RAW >> 20
                ),
            ));
        }
        if raw_len > bytes.len().saturating_mul(MAX_RATIO) {
            return Err(BlobError::invalid(
                SECTION,
                format!("block {block}: impossible size"),
            ));
        }
        Ok((bytes, raw_len))
    }

    fn inflate(&self, block: usize) -> Result<Vec<u8>, BlobError> {
        let (bytes, raw_len) = self.claimed(block)?;
        match decompress_to_vec_with_limit(bytes, raw_len) {
            Ok(raw) if raw.len() == raw_len => Ok(raw),
            _ => Err(BlobError::invalid(
                SECTION,
                format!("block {block} does not inflate"),
            )),
        }
    }
}

/// One block's raw records, and where each begins (a block holds at most
/// [`MAX_BLOCK_RAW`] bytes, so offsets fit in `u32`).
pub(super) struct InflatedBlock {
    raw: Vec<u8>,
    starts: Vec<u32>,
}

impl InflatedBlock {
    /// The block's `i`-th document.
    pub(super) fn article(&self, i: usize) -> Result<ArticleText, BlobError> {
        let rest = self
            .starts
            .get(i)
            .and_then(|&at| self.raw.get(at as usize..));
        let rest =
            rest.ok_or_else(|| BlobError::invalid(SECTION, format!("no record {i} in its block")))?;
        Reader(rest)
            .record()
            .map_err(|e| BlobError::invalid(SECTION, format!("record {i} in its block: {e}")))
    }

    /// Bytes held.
    pub(super) fn heap_bytes(&self) -> usize {
        self.raw.len() + 4 * self.starts.len()
    }
}

/// Parses records; every read is bounds-checked and says what is wrong
/// on damage.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let head = self
            .0
            .get(..n)
            .ok_or_else(|| format!("record needs {n} bytes, {} left", self.0.len()))?;
        self.0 = &self.0[n..];
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self) -> Result<String, String> {
        let len = self.u32()? as usize;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "text is not UTF-8".to_owned())
    }

    fn record(&mut self) -> Result<ArticleText, String> {
        let flags = self.take(1)?[0];
        if flags & !(JOINED | AUGMENTED | PATH | VERSION_DATE) != 0 {
            return Err(format!("unknown flags {flags:#04x}"));
        }
        let text = if flags & JOINED == 0 {
            Some(self.string()?)
        } else {
            None
        };
        let paragraphs = self.strings("paragraphs")?;
        let text = match text {
            Some(t) => t,
            None if paragraphs.is_empty() => {
                return Err("text joined from no paragraphs".to_owned())
            }
            None => paragraphs.join("\n"),
        };
        let augmented = match flags & AUGMENTED {
            0 => None,
            _ => Some(self.string()?),
        };
        let path = match flags & PATH {
            0 => Vec::new(),
            _ => match self.strings("divisions")? {
                path if path.is_empty() => return Err("a path of no divisions".to_owned()),
                path => path,
            },
        };
        let version_date = match flags & VERSION_DATE {
            0 => None,
            _ => match self.string()? {
                date if is_iso_date(&date) => Some(date),
                date => return Err(format!("version date \"{date}\" is not YYYY-MM-DD")),
            },
        };
        Ok(ArticleText {
            text,
            paragraphs,
            augmented,
            path,
            version_date,
        })
    }

    /// A count, then that many strings (`what` they are, for errors).
    fn strings(&mut self, what: &str) -> Result<Vec<String>, String> {
        let n = self.u32()? as usize;
        // Each string takes at least 4 bytes: bound `n` before allocating.
        if n > self.0.len() / 4 {
            return Err(format!(
                "{n} {what} cannot fit in the {} bytes left",
                self.0.len()
            ));
        }
        (0..n).map(|_| self.string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs() -> Vec<ArticleText> {
        (0..3000)
            .map(|i| ArticleText {
                text: format!("§ {i}. Stk. 1. tekst\nStk. 2. mere {}", i * 7),
                paragraphs: if i % 2 == 0 {
                    vec![
                        format!("§ {i}. Stk. 1. tekst"),
                        format!("Stk. 2. mere {}", i * 7),
                    ]
                } else {
                    Vec::new()
                },
                augmented: (i % 3 == 0).then(|| format!("kontekst {i}")),
                path: match i % 5 {
                    0 => Vec::new(),
                    n => (0..n).map(|d| format!("ΚΕΦΑΛΑΙΟ {d}: {i}")).collect(),
                },
                version_date: (i % 4 == 1).then(|| format!("{:04}-05-12", 1900 + i % 100)),
            })
            .collect()
    }

    fn archive(docs: &[ArticleText]) -> rkyv::util::AlignedVec {
        let section = encode(docs.iter().map(ArticleText::borrowed), Layout::BLOB).unwrap();
        rkyv::to_bytes::<rkyv::rancor::Error>(&section).unwrap()
    }

    #[test]
    fn every_document_reads_back_across_blocks() {
        let docs = docs();
        let bytes = archive(&docs);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bytes).unwrap();
        assert!(s.n_blocks() > 1, "the sample should span several blocks");
        s.validate(docs.len()).unwrap();
        for (i, doc) in docs.iter().enumerate() {
            assert_eq!(&s.article(i).unwrap(), doc);
        }
        assert!(s.article(docs.len()).is_err());
        assert!(s.validate(docs.len() + 1).is_err());
    }

    /// A raw deflate stream (one fixed-Huffman block) that inflates to
    /// `1 + 258 * repeats` zero bytes: a literal 0, then matches of length
    /// 258 at distance 1, 13 bits each (about 160:1).
    fn zeros_bomb(repeats: usize) -> (Vec<u8>, usize) {
        struct Bits(Vec<u8>, u64, u32);
        impl Bits {
            fn put(&mut self, value: u64, n: u32) {
                self.1 |= value << self.2;
                self.2 += n;
                while self.2 >= 8 {
                    self.0.push(self.1 as u8);
                    self.1 >>= 8;
                    self.2 -= 8;
                }
            }
            /// A Huffman code, most significant bit first.
            fn code(&mut self, code: u64, n: u32) {
                self.put(code.reverse_bits() >> (64 - n), n);
            }
        }
        let mut bits = Bits(Vec::new(), 0, 0);
        bits.put(1, 1); // last block
        bits.put(1, 2); // fixed Huffman codes
        bits.code(0x30, 8); // literal 0
        for _ in 0..repeats {
            bits.code(0xC5, 8); // length 258 (code 285)
            bits.code(0, 5); // distance 1 (code 0)
        }
        bits.code(0, 7); // end of block
        bits.put(0, 7);
        (bits.0, 1 + 258 * repeats)
    }

    fn section_of(blocks: &[(Vec<u8>, usize)]) -> rkyv::util::AlignedVec {
        let mut section = TextSection {
            block_docs: vec![0],
            block_ends: vec![0],
            raw_lens: Vec::new(),
            data: Vec::new(),
        };
        for (i, (data, raw)) in blocks.iter().enumerate() {
            section.data.extend_from_slice(data);
            section.block_ends.push(section.data.len() as u32);
            section.raw_lens.push(*raw as u32);
            section.block_docs.push(i as u32 + 1);
        }
        rkyv::to_bytes::<rkyv::rancor::Error>(&section).unwrap()
    }

    #[test]
    fn the_bomb_is_real() {
        let (data, raw) = zeros_bomb(1000);
        let inflated = decompress_to_vec_with_limit(&data, raw).unwrap();
        assert_eq!(inflated.len(), raw);
        assert!(inflated.iter().all(|&b| b == 0));
    }

    #[test]
    fn a_block_claiming_a_gibibyte_is_refused_before_inflating() {
        // 6.5 MB that really inflate to 1 GiB, within deflate's ratio.
        let (data, raw) = zeros_bomb((1 << 30) / 258);
        assert!(raw > 1 << 29 && raw <= data.len() * MAX_RATIO);
        let bytes = section_of(&[(data, raw)]);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bytes).unwrap();
        let err = s.validate(1).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "block 0 claims {raw} bytes of text; a block holds at most 16 MiB"
            )),
            "{err}"
        );
        assert!(s
            .article(0)
            .unwrap_err()
            .to_string()
            .contains("at most 16 MiB"));
    }

    #[test]
    fn blocks_claiming_too_much_in_all_are_refused_before_inflating() {
        // Each block is within the cap; together they are over it.
        let block = zeros_bomb(MAX_BLOCK_RAW / 258 - 1);
        let blocks = vec![block; (MAX_TEXT_RAW as usize / MAX_BLOCK_RAW) + 1];
        let bytes = section_of(&blocks);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bytes).unwrap();
        let err = s.validate(blocks.len()).unwrap_err().to_string();
        assert!(err.contains("at most 256 MiB is allowed"), "{err}");
    }

    #[test]
    fn the_encoder_refuses_a_block_over_the_cap() {
        let text = "a".repeat(MAX_BLOCK_RAW);
        let err = encode(
            [ArticleTextRef {
                text: &text,
                ..ArticleTextRef::default()
            }],
            Layout::BLOB,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("document 0: display text over"),
            "{err}"
        );
    }

    /// One block holding `record` as document 0, stored as is.
    fn one_record(record: &[u8]) -> rkyv::util::AlignedVec {
        section_of(&[(compress_to_vec(record, LEVEL), record.len())])
    }

    #[test]
    fn a_version_date_is_iso_or_refused() {
        let path = ["ΒΙΒΛΙΟ ΠΡΩΤΟ".to_string()];
        let doc = |date| ArticleTextRef {
            text: "Οι κανόνες του δικαίου",
            path: &path,
            version_date: Some(date),
            ..ArticleTextRef::default()
        };
        let err = encode([doc("23.02.1946")], Layout::BLOB).unwrap_err();
        assert!(
            err.to_string()
                .contains("document 0: version date \"23.02.1946\" is not YYYY-MM-DD"),
            "{err}"
        );
        // A damaged record is refused on reading too.
        let mut record = Vec::new();
        write_record(&mut record, doc("1946-02-23")).unwrap();
        let good = one_record(&record);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&good).unwrap();
        s.validate(1).unwrap();
        assert_eq!(
            s.article(0).unwrap().version_date.as_deref(),
            Some("1946-02-23")
        );
        let at = record.len() - 10;
        record[at..].copy_from_slice(b"23.02.1946");
        let bad = one_record(&record);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bad).unwrap();
        let err = s.validate(1).unwrap_err().to_string();
        assert!(err.contains("is not YYYY-MM-DD"), "{err}");
    }

    #[test]
    fn a_path_flag_with_no_divisions_is_refused() {
        let mut record = vec![PATH];
        write_str(&mut record, "text");
        record.extend_from_slice(&0u32.to_le_bytes());
        record.extend_from_slice(&0u32.to_le_bytes());
        let bytes = one_record(&record);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bytes).unwrap();
        let err = s.validate(1).unwrap_err().to_string();
        assert!(err.contains("a path of no divisions"), "{err}");
    }

    #[test]
    fn an_empty_corpus_has_no_blocks() {
        let bytes = archive(&[]);
        let s = rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(&bytes).unwrap();
        assert_eq!(s.n_blocks(), 0);
        s.validate(0).unwrap();
        assert!(s.article(0).is_err());
    }
}
