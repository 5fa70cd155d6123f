//! Checks a Parquet file's layout before the `parquet` crate decodes it: the
//! crate trusts the sizes it reads (it asserts that column chunks have
//! non-negative offsets, allocates whatever a page header claims, and
//! inflates gzip pages without a bound), so untrusted sizes are checked here.

use std::io::Read;

use parquet::basic::Compression;
use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};

use super::thrift::{self, Reader, FALSE, I32, STRUCT, TRUE};

/// The most a single page may inflate to. Writers cut pages at about 1 MiB
/// (pyarrow's default); one huge text value can make a page larger, but not
/// by this much.
pub(super) const MAX_PAGE_BYTES: i64 = 256 << 20;

const DICTIONARY_PAGE: i64 = 2;
const INDEX_PAGE: i64 = 1;
const PLAIN_DICTIONARY: i64 = 2;
const RLE_DICTIONARY: i64 = 8;

/// Every column chunk lies inside the file and every page header in it
/// claims sizes that fit: the chunk, at most [`MAX_PAGE_BYTES`] inflated,
/// and (for gzip) no more than the page really inflates to. A data page that
/// needs a dictionary must come after one.
pub(super) fn check(meta: &ParquetMetaData, file: &[u8]) -> Result<(), String> {
    for (g, group) in meta.row_groups().iter().enumerate() {
        for column in group.columns() {
            check_chunk(column, file).map_err(|e| {
                format!(
                    "row group {}, column `{}`: {e}",
                    g + 1,
                    column.column_path().string()
                )
            })?;
        }
    }
    Ok(())
}

fn check_chunk(column: &ColumnChunkMetaData, file: &[u8]) -> Result<(), String> {
    let start = column
        .dictionary_page_offset()
        .unwrap_or(column.data_page_offset());
    let len = column.compressed_size();
    let range = usize::try_from(start)
        .ok()
        .zip(usize::try_from(len).ok())
        .and_then(|(s, l)| Some(s..s.checked_add(l)?))
        .filter(|r| r.end <= file.len())
        .ok_or_else(|| {
            format!(
                "claims {len} bytes at offset {start}, outside the file's {} bytes",
                file.len()
            )
        })?;
    let chunk = &file[range];
    let gzip = matches!(column.compression(), Compression::GZIP(_));
    let mut at = 0;
    let mut has_dictionary = false;
    while at < chunk.len() {
        let located = |msg: String| format!("page at byte {}: {msg}", start as usize + at);
        let (header_len, page) = header(&chunk[at..]).map_err(|e| located(e.to_string()))?;
        let body_start = at + header_len;
        let body = usize::try_from(page.compressed)
            .ok()
            .and_then(|n| chunk.get(body_start..body_start.checked_add(n)?));
        let Some(body) = body else {
            return Err(located(format!(
                "claims {} stored bytes, past the end of its column chunk",
                page.compressed
            )));
        };
        if !(0..=MAX_PAGE_BYTES).contains(&page.uncompressed) {
            return Err(located(format!(
                "claims to inflate to {} bytes (at most {MAX_PAGE_BYTES} are read)",
                page.uncompressed
            )));
        }
        if page.kind == DICTIONARY_PAGE {
            has_dictionary = true;
        } else if page.kind != INDEX_PAGE
            && matches!(page.encoding, Some(PLAIN_DICTIONARY | RLE_DICTIONARY))
            && !has_dictionary
        {
            return Err(located(
                "uses a dictionary, but no dictionary page precedes it".into(),
            ));
        }
        if gzip && page.compressed_body {
            let levels = usize::try_from(page.levels_len).unwrap_or(usize::MAX);
            let packed = body
                .get(levels..)
                .ok_or_else(|| located("levels longer than the page".into()))?;
            check_gzip(packed, page.uncompressed - page.levels_len).map_err(located)?;
        }
        at = body_start + body.len();
    }
    Ok(())
}

/// A gzip page must not inflate past its claim: the crate reads gzip to the
/// end before it compares sizes, so a small page could inflate to gigabytes.
fn check_gzip(packed: &[u8], claim: i64) -> Result<(), String> {
    let limit = u64::try_from(claim).map_err(|_| format!("claims {claim} inflated bytes"))?;
    let inflated = std::io::copy(
        &mut flate2::read::MultiGzDecoder::new(packed).take(limit + 1),
        &mut std::io::sink(),
    )
    .map_err(|e| format!("gzip data: {e}"))?;
    if inflated > limit {
        return Err(format!("inflates past the {limit} bytes it claims"));
    }
    Ok(())
}

/// What the checks need from a page header.
#[derive(Default)]
struct Page {
    kind: i64,
    uncompressed: i64,
    compressed: i64,
    /// The data page's value encoding (none for dictionary and index pages).
    encoding: Option<i64>,
    /// V2 data pages store their level bytes uncompressed before the data.
    levels_len: i64,
    compressed_body: bool,
}

/// Reads one page header; returns its length in bytes and its fields.
fn header(bytes: &[u8]) -> Result<(usize, Page), thrift::Malformed> {
    let mut page = Page {
        compressed_body: true,
        ..Page::default()
    };
    let mut r = Reader::new(bytes);
    r.fields(0, &mut |r, id, kind| {
        match (id, kind) {
            (1, I32) => page.kind = r.int()?,
            (2, I32) => page.uncompressed = r.int()?,
            (3, I32) => page.compressed = r.int()?,
            // DataPageHeader: its field 2 is the encoding.
            (5, STRUCT) => r.fields(1, &mut |r, id, kind| {
                Ok(match (id, kind) {
                    (2, I32) => {
                        page.encoding = Some(r.int()?);
                        true
                    }
                    _ => false,
                })
            })?,
            // DataPageHeaderV2: encoding, level lengths, is_compressed.
            (8, STRUCT) => r.fields(1, &mut |r, id, kind| {
                Ok(match (id, kind) {
                    (4, I32) => {
                        page.encoding = Some(r.int()?);
                        true
                    }
                    (5 | 6, I32) => {
                        page.levels_len = page.levels_len.saturating_add(r.int()?.max(0));
                        true
                    }
                    (7, TRUE | FALSE) => {
                        page.compressed_body = kind == TRUE;
                        true
                    }
                    _ => false,
                })
            })?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok((r.position(), page))
}
