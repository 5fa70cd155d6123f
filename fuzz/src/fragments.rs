//! A fragmented pool's files, as a page fetches them one by one: the meta,
//! postings fragments, directory pages, documents fragments, the
//! centroids and lists fragments.

use nomos_core::blob::reseal;
use nomos_core::fragments::{relist, relist_in_page, FragmentKind, Meta};

use crate::tiny;

/// One selector byte, then a file. Selector 0: the bytes are a meta file,
/// read as given and resealed, and a meta that loads must answer every
/// question and open the tiny pool's fragments (as it lists them or not)
/// without panicking. Selector `n` > 0: the bytes replace the tiny pool's
/// fragment `(n − 1) mod` its count, resealed and relisted (in its
/// directory page, for a documents fragment), so that mutations reach
/// the fragment's own checks; then the same.
pub fn fragments(data: &[u8]) {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    let pool = tiny::fragmented();
    let mut files: Vec<Vec<u8>> = pool.fragments.iter().map(|(_, b)| b.clone()).collect();
    if which == 0 {
        let mut sealed = bytes.to_vec();
        reseal(&mut sealed);
        for meta in [bytes, &sealed] {
            if let Ok(meta) = Meta::load(meta) {
                exercise(&meta, &files);
            }
        }
        return;
    }
    let number = (usize::from(which) - 1) % files.len();
    let mut fragment = bytes.to_vec();
    reseal(&mut fragment);
    let mut meta = pool.meta.clone();
    let relisted = match pool.fragments[number].0.kind {
        FragmentKind::Docs => relist_docs(&mut meta, &mut files, number, &fragment),
        _ => relist(&mut meta, number, &fragment).is_ok(),
    };
    assert!(relisted, "the tiny pool lists its fragment {number}");
    files[number] = fragment;
    let meta = Meta::load(&meta).expect("a relisted meta loads");
    exercise(&meta, &files);
}

/// Lists `fragment` as documents fragment `number` in its directory
/// page, and that page in `meta`.
fn relist_docs(meta: &mut [u8], files: &mut [Vec<u8>], number: usize, fragment: &[u8]) -> bool {
    let loaded = Meta::load(meta).expect("the tiny pool's meta loads");
    for &p in loaded.pages() {
        let page = loaded
            .open_page(p, &files[p])
            .expect("the tiny pool's page opens");
        let at = page.fragments().position(|(n, _)| n == number);
        if let Some(at) = at {
            let mut page_bytes = files[p].clone();
            let ok = relist_in_page(&mut page_bytes, at, fragment).is_ok()
                && relist(meta, p, &page_bytes).is_ok();
            files[p] = page_bytes;
            return ok;
        }
    }
    false
}

/// Everything a page asks of a meta and fragment `n` being `files[n]`:
/// BM25 over each field and each document's explanation, the documents of the directory's pages, each
/// source's files (what keeping an act offline fetches), and a dense query over every list.
fn exercise(meta: &Meta, files: &[Vec<u8>]) {
    let file = |n: usize| files.get(n).map_or(&[][..], Vec::as_slice);
    let _ = (
        meta.info(),
        meta.content_hash(),
        meta.n_docs(),
        meta.fragment_bytes(),
    );
    let analyzer = meta.analyzer();
    let fields: Vec<_> = meta.fields().collect();
    for field in fields {
        for query in ["fishing at sea", "the shore", "way"] {
            let tokens = analyzer.tokens(query);
            let Ok(needed) = meta.needed(field, &tokens) else {
                continue;
            };
            let opened: Vec<_> = needed
                .iter()
                .filter_map(|&n| meta.open(n, file(n)).ok())
                .collect();
            let refs: Vec<_> = opened.iter().collect();
            let _ = meta.rank(field, meta.bm25_params(), &tokens, &refs, 10);
            for doc in 0..=meta.n_docs().min(1000) as u32 {
                let _ = meta.explain(field, meta.bm25_params(), &tokens, &refs, doc);
            }
        }
    }
    let all: Vec<u32> = (0..meta.n_docs().min(1000) as u32).collect();
    let _ = meta.needed_pages(&all);
    let pages: Vec<_> = meta
        .pages()
        .iter()
        .filter_map(|&p| meta.open_page(p, file(p)).ok())
        .collect();
    let given: Vec<_> = pages.iter().collect();
    for name in meta.sources() {
        let _ = (meta.source_docs(name), meta.source_pages(name));
        let _ = meta.source_files(&given, name);
    }
    for page in &pages {
        let _ = meta.needed_docs(&[page], &all);
        for (n, _) in page.fragments() {
            let Ok(docs) = meta.open_docs(page, n, file(n)) else {
                continue;
            };
            for doc in docs.docs() {
                let _ = (
                    docs.id(doc),
                    docs.title(doc),
                    meta.source(doc),
                    meta.area(doc),
                );
                let _ = (docs.explicit_refs(doc), docs.implicit_refs(doc));
                let _ = docs.article(doc);
            }
        }
    }
    let Some((_, _, dim)) = meta.dense_model() else {
        return;
    };
    let Ok(c) = meta.needed_centroids() else {
        return;
    };
    let Ok(centroids) = meta.open_centroids(c, file(c)) else {
        return;
    };
    let mut query = vec![0.0; dim.min(4096)];
    if let Some(first) = query.first_mut() {
        *first = 1.0;
    }
    let Ok(needed) = meta.needed_lists(&centroids, &query, 0) else {
        return;
    };
    let lists: Vec<_> = needed
        .iter()
        .filter_map(|&n| meta.open_lists(n, file(n)).ok())
        .collect();
    let refs: Vec<_> = lists.iter().collect();
    let _ = meta.rank_dense(&centroids, &query, 0, &refs, 10);
}
