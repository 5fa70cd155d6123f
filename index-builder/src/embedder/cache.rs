//! An embedding cache file, so that a long `nomos build --embed` can be
//! stopped and resumed, and a rebuild embeds only texts it has not seen.
//!
//! Each text's vectors are keyed by the xxh3-128 of what was embedded (the
//! pooling's windows and the passage text). The file is a header (magic,
//! version, the model's manifest hash, the dimension) and then records
//! appended as texts are embedded, each `key: u128, vectors: u32, values:
//! f32 × vectors × dim, check: u64` (little-endian), the check being the
//! xxh3-64 of the record's bytes before it. A record cut short by a killed
//! run is dropped, and the file truncated to the last whole record, so a
//! rerun resumes; a record whose check fails means the file is damaged and
//! is refused, never used.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

const MAGIC: &[u8; 8] = b"NOMOSEMB";
const VERSION: u32 = 1;

/// An open cache: what earlier runs embedded, and the file new texts are
/// appended to.
pub struct EmbedCache {
    path: PathBuf,
    dim: usize,
    entries: HashMap<u128, Vec<f32>>,
    out: BufWriter<File>,
    /// Texts found in the cache and texts embedded, this run.
    pub hits: usize,
    pub misses: usize,
    /// Hits embedded again and compared ([`EmbedCache::check`]).
    pub checked: usize,
}

/// How many cache hits a run embeds again to compare: a cache copied from
/// elsewhere (the demo's committed one for the Greek codes) must hold this
/// model's vectors, and a few texts tell that in seconds.
pub const CHECKED_HITS: usize = 4;

/// The largest difference of one value between a cached vector and the
/// model's: the model is deterministic on one machine, and another CPU's
/// kernels differ by far less (values are of an L2-normalised vector).
const TOLERANCE: f32 = 1e-3;

impl EmbedCache {
    /// Opens or creates the cache at `path` for the model with manifest
    /// hash `manifest_hash` and dimension `dim`. A cache of another model
    /// or version, or a damaged record, is refused.
    pub fn open(path: &Path, manifest_hash: &str, dim: usize) -> Result<EmbedCache> {
        let header = header(manifest_hash, dim);
        let mut entries = HashMap::new();
        let mut good = header.len();
        match File::open(path) {
            Ok(mut f) => {
                let mut bytes = Vec::new();
                f.read_to_end(&mut bytes)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if !bytes.starts_with(&header) {
                    bail!(
                        "{}: not an embedding cache of this model (manifest {manifest_hash}, \
                         {dim} values): give another --embed-cache file or delete it",
                        path.display()
                    );
                }
                good = read_records(&bytes, good, dim, &mut entries)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(path, &header)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            Err(e) => bail!("cannot read {}: {e}", path.display()),
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        // Drops a record cut short by a killed run.
        file.set_len(good as u64)
            .with_context(|| format!("cannot truncate {}", path.display()))?;
        let mut out = BufWriter::new(file);
        std::io::Seek::seek(&mut out, std::io::SeekFrom::End(0))?;
        Ok(EmbedCache {
            path: path.to_path_buf(),
            dim,
            entries,
            out,
            hits: 0,
            misses: 0,
            checked: 0,
        })
    }

    /// The key of a text embedded with `windows` (a pooling's windows,
    /// as text).
    pub fn key(windows: &str, passage: &str) -> u128 {
        let mut bytes = Vec::with_capacity(windows.len() + 1 + passage.len());
        bytes.extend_from_slice(windows.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(passage.as_bytes());
        xxh3_128(&bytes)
    }

    /// The vectors cached for `key`, counted as a hit.
    pub fn get(&mut self, key: u128) -> Option<Vec<f32>> {
        let found = self.entries.get(&key).cloned();
        self.hits += usize::from(found.is_some());
        found
    }

    /// Compares the vectors cached for `key` with `fresh`, the model's for
    /// the same text; any value further than [`TOLERANCE`] apart means the
    /// cache is of another model or damaged, and is refused.
    pub fn check(&mut self, key: u128, fresh: &[f32]) -> Result<()> {
        let cached = self.entries.get(&key).map_or(&[][..], Vec::as_slice);
        let close = cached.len() == fresh.len()
            && cached
                .iter()
                .zip(fresh)
                .all(|(a, b)| (a - b).abs() <= TOLERANCE);
        if !close {
            let apart = cached
                .iter()
                .zip(fresh)
                .map(|(a, b)| (a - b).abs())
                .fold(0f32, f32::max);
            bail!(
                "{}: its vectors differ from the model's for the same text ({} values cached, \
                 {} from the model, {apart:.4} apart at most): the cache was made by another \
                 model or is damaged; delete it or give another --embed-cache file",
                self.path.display(),
                cached.len(),
                fresh.len()
            );
        }
        self.checked += 1;
        Ok(())
    }

    /// Records `vectors` (a whole number of vectors) for `key`, counted as
    /// a miss; written through at once, so that a killed run loses at most
    /// the record in flight.
    pub fn put(&mut self, key: u128, vectors: &[f32]) -> Result<()> {
        self.misses += 1;
        let n = vectors.len() / self.dim;
        let mut record = Vec::with_capacity(24 + vectors.len() * 4);
        record.extend_from_slice(&key.to_le_bytes());
        record.extend_from_slice(&(n as u32).to_le_bytes());
        for x in vectors {
            record.extend_from_slice(&x.to_le_bytes());
        }
        let check = xxh3_64(&record);
        record.extend_from_slice(&check.to_le_bytes());
        self.out
            .write_all(&record)
            .and_then(|()| self.out.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        self.entries.insert(key, vectors.to_vec());
        Ok(())
    }
}

fn header(manifest_hash: &str, dim: usize) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&(dim as u32).to_le_bytes());
    h.extend_from_slice(&(manifest_hash.len() as u32).to_le_bytes());
    h.extend_from_slice(manifest_hash.as_bytes());
    h
}

/// Reads the records from `at` into `entries`; returns where the last
/// whole record ends (a short tail is left out).
fn read_records(
    bytes: &[u8],
    mut at: usize,
    dim: usize,
    entries: &mut HashMap<u128, Vec<f32>>,
) -> std::result::Result<usize, String> {
    loop {
        let Some(head) = bytes.get(at..at + 20) else {
            return Ok(at);
        };
        let key = u128::from_le_bytes(head[..16].try_into().unwrap_or_default());
        let n = u32::from_le_bytes(head[16..20].try_into().unwrap_or_default()) as usize;
        let values = n.checked_mul(dim).and_then(|v| v.checked_mul(4));
        let Some(end) = values.and_then(|v| (at + 20).checked_add(v)) else {
            return Err(format!("record at byte {at} is damaged"));
        };
        let Some(check) = bytes.get(end..end + 8) else {
            return Ok(at);
        };
        if xxh3_64(&bytes[at..end]).to_le_bytes() != check {
            return Err(format!(
                "record at byte {at} is damaged: delete the cache or give another file"
            ));
        }
        let vectors: Vec<f32> = bytes[at + 20..end]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if n == 0 || vectors.iter().any(|x| !x.is_finite()) {
            return Err(format!("record at byte {at} holds no finite vectors"));
        }
        entries.insert(key, vectors);
        at = end + 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_survive_a_reopen_and_a_cut_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let key = EmbedCache::key("max", "passage: a");
        {
            let mut cache = EmbedCache::open(&path, "h", 2).unwrap();
            assert_eq!(cache.get(key), None);
            cache.put(key, &[0.5, -1.0, 2.0, 0.25]).unwrap();
            cache
                .put(EmbedCache::key("max", "passage: b"), &[1.0, 0.0])
                .unwrap();
        }
        // A killed run: the last record is cut short.
        let len = std::fs::metadata(&path).unwrap().len();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(len - 3).unwrap();
        let mut cache = EmbedCache::open(&path, "h", 2).unwrap();
        assert_eq!(cache.get(key), Some(vec![0.5, -1.0, 2.0, 0.25]));
        assert_eq!(cache.get(EmbedCache::key("max", "passage: b")), None);
        assert_eq!((cache.hits, cache.misses), (1, 0));
        cache
            .put(EmbedCache::key("max", "passage: b"), &[1.0, 0.0])
            .unwrap();
        drop(cache);
        let mut cache = EmbedCache::open(&path, "h", 2).unwrap();
        assert_eq!(
            cache.get(EmbedCache::key("max", "passage: b")),
            Some(vec![1.0, 0.0])
        );
        assert_ne!(
            EmbedCache::key("first", "passage: b"),
            EmbedCache::key("max", "passage: b")
        );
    }

    #[test]
    fn another_model_or_a_damaged_record_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let mut cache = EmbedCache::open(&path, "h", 2).unwrap();
        cache.put(1, &[1.0, 2.0]).unwrap();
        drop(cache);
        let other = EmbedCache::open(&path, "other", 2).err().unwrap();
        assert!(other
            .to_string()
            .contains("not an embedding cache of this model"));
        assert!(EmbedCache::open(&path, "h", 3).is_err());
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 12;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let damaged = EmbedCache::open(&path, "h", 2).err().unwrap();
        assert!(damaged.to_string().contains("damaged"), "{damaged}");
        // Every flipped byte is refused or read, never a panic.
        let clean = {
            let p = dir.path().join("clean");
            let mut c = EmbedCache::open(&p, "h", 2).unwrap();
            c.put(7, &[0.5, 0.5, 1.0, 1.0]).unwrap();
            drop(c);
            std::fs::read(&p).unwrap()
        };
        for at in 0..clean.len() {
            let mut flipped = clean.clone();
            flipped[at] ^= 0x80;
            let p = dir.path().join("flip");
            std::fs::write(&p, &flipped).unwrap();
            if let Ok(mut c) = EmbedCache::open(&p, "h", 2) {
                // Read back only what passed its check.
                if let Some(v) = c.get(7) {
                    assert_eq!(v, vec![0.5, 0.5, 1.0, 1.0]);
                }
            }
        }
    }
}
