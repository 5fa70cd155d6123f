//! A loaded blob holds nothing of its file twice. This test binary's
//! allocator counts the bytes live on the heap, so the test measures what
//! `Blob::load` keeps, as the browser's heap would hold it.

mod blob_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use nomos_core::blob::{encode, Blob, Field};

use blob_support::{input, sample};

/// The system allocator, counting the bytes it has handed out and not got
/// back.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::SeqCst);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::SeqCst);
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_loaded_blob_keeps_each_byte_of_its_file_once() {
    let s = sample();
    let (bytes, _) = encode(&input(&s)).unwrap();
    drop(s);

    let before = LIVE.load(Ordering::SeqCst);
    let blob = Blob::load(&bytes).unwrap();
    let kept = LIVE.load(Ordering::SeqCst) - before;

    // Besides the file's bytes, a loaded blob may hold the orders it looks
    // ids and terms up by (4 bytes a document; 12 a term, with the term's
    // first 8 bytes beside its place in the order) and a few small
    // structures. Keeping the file beside the postings, vectors or idf
    // table copied out of it, or every term in a map beside the term list,
    // costs far more.
    let terms: usize = [Field::Text, Field::Augmented]
        .iter()
        .filter_map(|&f| blob.index(f))
        .map(|i| i.n_terms())
        .sum();
    let budget = bytes.len() + 4 * blob.n_docs() + 12 * terms + 16 * 1024;
    assert!(
        kept <= budget,
        "a blob of {} bytes keeps {kept} bytes on the heap once loaded; at most {budget} expected",
        bytes.len()
    );
}
