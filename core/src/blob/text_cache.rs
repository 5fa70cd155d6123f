//! Recently inflated display-text blocks. A block holds the text of many
//! consecutive documents, and readers go block by block: a result list
//! grown by "Show more" reads its first rows again, an article's
//! neighbours share its block, embedding reads every document in order.
//! Kept blocks are inflated once while in use, not once per document read.

use std::sync::{Arc, Mutex};

use super::format::ArchivedTextSection;
use super::text::{ArticleText, InflatedBlock};
use super::BlobError;

/// Most blocks kept (blocks close at 64 KiB of text, so about 4 MiB).
const MAX_BLOCKS: usize = 64;
/// Most bytes kept: room for the largest block a blob may have (16 MiB)
/// with its record offsets.
const MAX_BYTES: usize = 32 << 20;

/// Blocks by index, the least recently used evicted first.
#[derive(Default)]
pub(super) struct TextCache {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    /// Least recently used first; at most [`MAX_BLOCKS`], short enough to
    /// search in order.
    blocks: Vec<((usize, usize), Arc<InflatedBlock>)>,
    bytes: usize,
    /// Blocks inflated so far.
    #[cfg(test)]
    inflations: usize,
}

impl TextCache {
    /// Document `doc`'s text from `text` (the blob's, or its text part
    /// `part`'s: blocks are kept by part and number), its block inflated
    /// unless kept.
    pub(super) fn article(
        &self,
        part: usize,
        text: &ArchivedTextSection,
        doc: usize,
    ) -> Result<ArticleText, BlobError> {
        let (block, first) = text.block_of(doc)?;
        self.block(text, (part, block))?.article(doc - first)
    }

    fn block(
        &self,
        text: &ArchivedTextSection,
        block: (usize, usize),
    ) -> Result<Arc<InflatedBlock>, BlobError> {
        let lock = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        {
            let mut kept = lock();
            if let Some(at) = kept.blocks.iter().position(|(b, _)| *b == block) {
                let entry = kept.blocks.remove(at);
                let found = entry.1.clone();
                kept.blocks.push(entry);
                return Ok(found);
            }
        }
        // Inflated unlocked: other threads read other blocks meanwhile.
        let inflated = Arc::new(text.inflate_block(block.1)?);
        let mut kept = lock();
        #[cfg(test)]
        {
            kept.inflations += 1;
        }
        if !kept.blocks.iter().any(|(b, _)| *b == block) {
            kept.bytes += inflated.heap_bytes();
            kept.blocks.push((block, inflated.clone()));
        }
        while kept.blocks.len() > 1 && (kept.blocks.len() > MAX_BLOCKS || kept.bytes > MAX_BYTES) {
            let (_, evicted) = kept.blocks.remove(0);
            kept.bytes -= evicted.heap_bytes();
        }
        Ok(inflated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blob::format::TextSection;
    use crate::blob::text::{encode, ArticleTextRef, Layout};

    /// `n` documents of about `size` bytes each.
    fn section(n: usize, size: usize) -> (Vec<String>, rkyv::util::AlignedVec) {
        let texts: Vec<String> = (0..n)
            .map(|i| format!("§ {i}. {}", "tekst ".repeat(size / 6)))
            .collect();
        let section: TextSection = encode(
            texts.iter().map(|t| ArticleTextRef {
                text: t,
                ..ArticleTextRef::default()
            }),
            Layout::BLOB,
        )
        .unwrap();
        (
            texts,
            rkyv::to_bytes::<rkyv::rancor::Error>(&section).unwrap(),
        )
    }

    fn access(bytes: &[u8]) -> &ArchivedTextSection {
        rkyv::access::<ArchivedTextSection, rkyv::rancor::Error>(bytes).unwrap()
    }

    fn inflations(cache: &TextCache) -> usize {
        cache.kept.lock().unwrap().inflations
    }

    /// "Show more" 40 times: rows 1–25, then 1–50, … 1–1,000, each list
    /// reading every row's text. Each block is inflated once; uncached,
    /// every row of every list inflated its block (20,500 times).
    #[test]
    fn a_growing_result_list_inflates_each_block_once() {
        let (texts, bytes) = section(2000, 1000);
        let text = access(&bytes);
        let cache = TextCache::default();
        for limit in (25..=1000).step_by(25) {
            for (doc, expected) in texts.iter().enumerate().take(limit) {
                assert_eq!(&cache.article(0, text, doc).unwrap().text, expected);
            }
        }
        let blocks = text.block_of(999).unwrap().0 + 1;
        assert!(blocks > 10, "{blocks} blocks");
        assert_eq!(inflations(&cache), blocks);
    }

    #[test]
    fn the_cache_keeps_a_bounded_number_of_blocks() {
        let (texts, bytes) = section(1200, 8000);
        let text = access(&bytes);
        assert!(text.n_blocks() > MAX_BLOCKS);
        let cache = TextCache::default();
        for (doc, expected) in texts.iter().enumerate() {
            assert_eq!(&cache.article(0, text, doc).unwrap().text, expected);
        }
        assert_eq!(inflations(&cache), text.n_blocks());
        {
            let kept = cache.kept.lock().unwrap();
            assert_eq!(kept.blocks.len(), MAX_BLOCKS);
            let held: usize = kept.blocks.iter().map(|(_, b)| b.heap_bytes()).sum();
            assert_eq!(kept.bytes, held);
            assert!(held <= MAX_BYTES);
        }
        // The first block was evicted: it is inflated again, once.
        cache.article(0, text, 0).unwrap();
        cache.article(0, text, 1).unwrap();
        assert_eq!(inflations(&cache), text.n_blocks() + 1);
        assert!(cache.article(0, text, texts.len()).is_err());
    }
}
