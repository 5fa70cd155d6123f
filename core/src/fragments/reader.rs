//! Opening postings fragments and ranking BM25 over them, to the bit as
//! [`crate::search::Bm25Scorer`] ranks the whole blob: the same idf (the
//! blob's logarithms, carried by each fragment for its terms; okapi's
//! floor from the vocabulary's sum in the meta), the same
//! length norms (each posting carries its document's length), and each
//! document's contributions added in query-token order (each distinct
//! term's postings read once, however often the query repeats it).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::format::{ArchivedPostingsSection, POSTINGS_TAG};
use super::meta::{FieldDirectory, Meta};
use super::FragmentError;
use crate::blob::{access, Field};
use crate::hits::{top_k_of, Hit};
use crate::index::{check_lists, varint, Postings};
use crate::search::{
    add_lucene, add_okapi, avg_len, doc_norm, lucene_term_idf, okapi_floor, okapi_floored,
    Bm25Params, Bm25Variant, IdfTable, Precision, QueryTerms,
};

/// One checked postings fragment.
#[derive(Debug, Clone)]
pub struct TermFragment {
    number: usize,
    field: Field,
    /// Ascending.
    terms: Vec<String>,
    doc_freqs: Vec<u32>,
    offsets: Vec<u32>,
    postings: Vec<u8>,
    /// Each posting's document length, in posting order.
    lens: Vec<u32>,
    /// The idf logarithms of its terms' document frequencies.
    idf: IdfTable,
    /// Where each term's lengths start in `lens`.
    len_starts: Vec<usize>,
}

impl TermFragment {
    /// Its number in the meta's list.
    pub fn number(&self) -> usize {
        self.number
    }

    /// About the memory it holds: more than its file, as each posting's
    /// document length is kept as 4 bytes (what a cache should count).
    pub fn heap_bytes(&self) -> usize {
        let terms: usize = self.terms.iter().map(|t| t.len() + 24).sum();
        terms
            + 4 * (self.doc_freqs.len() + self.offsets.len() + self.lens.len())
            + self.postings.len()
            + self.idf.heap_bytes()
            + 8 * self.len_starts.len()
    }

    /// The document frequency and postings of `term`, with their
    /// documents' lengths in posting order, if it is here.
    pub fn postings(&self, term: &str) -> Option<(u32, Postings<'_>, &[u32])> {
        let t = self.terms.binary_search_by(|x| x.as_str().cmp(term)).ok()?;
        let bytes = &self.postings[self.offsets[t] as usize..self.offsets[t + 1] as usize];
        let df = self.doc_freqs[t];
        let lens = &self.lens[self.len_starts[t]..self.len_starts[t] + df as usize];
        Some((df, Postings::new(bytes), lens))
    }

    /// The idf of a term of this fragment with `df` documents, as the
    /// blob's scorer has it for `params` (okapi floored at `floor`).
    pub(super) fn idf(&self, params: Bm25Params, n_docs: u64, floor: f64, df: u32) -> f64 {
        match params.variant {
            Bm25Variant::Okapi => {
                okapi_floored(IdfTable::okapi(Some(&self.idf), n_docs, df), floor)
            }
            Bm25Variant::Lucene => lucene_term_idf(Some(&self.idf), n_docs, df),
        }
    }
}

impl Meta {
    /// Checks `bytes` as fragment `number`: its frame, that it is the file
    /// the meta lists (length and hash), its archive, and its contents
    /// (the field and term range the directory gives it, every posting
    /// through [`check_lists`], a length per posting, none below its term
    /// frequency, an idf row per document frequency, each checked against
    /// the local `ln`).
    pub fn open(&self, number: usize, bytes: &[u8]) -> Result<TermFragment, FragmentError> {
        let section = self.checked(number, bytes, POSTINGS_TAG)?;
        let inconsistent = |e: String| self.refused(number, format!("is inconsistent: {e}"));
        let p: &ArchivedPostingsSection =
            access(&section, "postings").map_err(|e| inconsistent(e.to_string()))?;
        let field = Field::from(&p.field);
        let (dir, position) = self
            .fields
            .iter()
            .find_map(|d| Some((d, d.fragments.iter().position(|&n| n == number)?)))
            .filter(|(d, _)| d.field == field)
            .ok_or_else(|| {
                inconsistent(format!("its field, {}, does not list it", field.name()))
            })?;
        p.terms
            .validate("postings", "terms", Some(p.doc_freqs.len()))
            .map_err(|e| inconsistent(e.to_string()))?;
        let terms: Vec<String> = p.terms.iter().map(str::to_owned).collect();
        check_range(dir, position, &terms).map_err(inconsistent)?;
        let doc_freqs: Vec<u32> = p.doc_freqs.iter().map(|d| d.to_native()).collect();
        let offsets: Vec<u32> = p.offsets.iter().map(|o| o.to_native()).collect();
        let postings = p.postings.to_vec();
        check_lists(&doc_freqs, &offsets, &postings, self.n_docs)
            .map_err(|e| inconsistent(e.to_string()))?;
        let idf = IdfTable::from_parts(
            u64::from(self.n_docs),
            p.idf.dfs.iter().map(|d| d.to_native()).collect(),
            p.idf.okapi.iter().map(|v| v.to_native()).collect(),
            p.idf.lucene.iter().map(|v| v.to_native()).collect(),
        )
        .map_err(|e| inconsistent(format!("idf table: {e}")))?;
        // A frequency the table lacks would fall back to the local `ln`,
        // which in WebAssembly can differ in the last bit.
        if let Some(df) = doc_freqs
            .iter()
            .find(|df| idf.dfs().binary_search(df).is_err())
        {
            return Err(inconsistent(format!("no idf for document frequency {df}")));
        }
        let mut lens = Vec::new();
        let mut len_starts = Vec::with_capacity(terms.len());
        let mut rest = p.lens.as_slice();
        for w in offsets.windows(2) {
            len_starts.push(lens.len());
            for posting in Postings::new(&postings[w[0] as usize..w[1] as usize]) {
                let (len, used) = varint::decode(rest)
                    .map_err(|e| inconsistent(format!("document lengths: {e:?}")))?;
                if len < posting.tf {
                    return Err(inconsistent(format!(
                        "document {} is {len} tokens long but has a term {} times",
                        posting.doc, posting.tf
                    )));
                }
                lens.push(len);
                rest = &rest[used..];
            }
        }
        if !rest.is_empty() {
            return Err(inconsistent("more document lengths than postings".into()));
        }
        Ok(TermFragment {
            number,
            field,
            terms,
            doc_freqs,
            offsets,
            postings,
            lens,
            len_starts,
            idf,
        })
    }

    /// BM25 scores of `tokens` over `field` with `params`, for every
    /// document a term of the query occurs in, ascending by document; the
    /// scores [`crate::search::Bm25Scorer::scores`] gives over the blob,
    /// bit for bit (every other document scores 0). `fragments` must hold
    /// those [`Meta::needed`] names; others are ignored.
    pub fn scores<S: AsRef<str>>(
        &self,
        field: Field,
        params: Bm25Params,
        tokens: &[S],
        fragments: &[&TermFragment],
    ) -> Result<Vec<(u32, f64)>, FragmentError> {
        params
            .validate()
            .map_err(|e| FragmentError::Input(e.to_string()))?;
        let dir = self.directory(field)?;
        let n_docs = u64::from(self.n_docs);
        let avgdl = avg_len(dir.total_len, self.n_docs as usize);
        let floor = okapi_floor(dir.okapi_sum, dir.n_terms as usize, params.epsilon);
        let k1_plus_1 = params.k1 + 1.0;
        // Each distinct term's postings are read once; each document's
        // contributions are then added in query-token order, as the
        // blob's scorer adds them (`QueryTerms`).
        let known = QueryTerms::of(tokens.iter().filter_map(|token| {
            let token = token.as_ref();
            Some((token, dir.position(token)?))
        }));
        let precision = match params.variant {
            Bm25Variant::Okapi => Precision::F64,
            Bm25Variant::Lucene => Precision::F32,
        };
        // Each term's postings are in document order: merged, they give
        // each document's contributions in (document, term) order without
        // holding them all (at a million postings, a vector of them and
        // its sort grew the page's memory by tens of MB a query).
        let mut streams = Vec::new();
        // At least the longest list's documents are scored: room for them
        // at once, not by doubling (each doubling leaves a freed block
        // the page's memory cannot return).
        let mut most = 0;
        for (term, &(token, position)) in known.distinct.iter().enumerate() {
            let fragment = self.holder(dir, position, fragments)?;
            let Some((df, postings, lens)) = fragment.postings(token) else {
                continue;
            };
            let idf = fragment.idf(params, n_docs, floor, df);
            most = most.max(df as usize);
            streams.push(TermStream {
                term,
                postings: postings.zip(lens.iter()),
                idf,
            });
        }
        let once = |stream: &mut TermStream<'_>| {
            let (p, &len) = stream.postings.next()?;
            let norm = doc_norm(len, params.k1, params.b, avgdl);
            let mut once = 0.0;
            match params.variant {
                Bm25Variant::Okapi => add_okapi(&mut once, stream.idf, k1_plus_1, p.tf, norm),
                Bm25Variant::Lucene => add_lucene(&mut once, stream.idf, p.tf, norm),
            }
            Some((p.doc, once))
        };
        let mut next: Vec<Option<(u32, f64)>> = streams.iter_mut().map(once).collect();
        // (document, stream): streams are in term order, so the heap
        // gives a document's contributions in term order.
        let mut heads: BinaryHeap<Reverse<(u32, usize)>> = next
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.map(|(doc, _)| Reverse((doc, i))))
            .collect();
        let mut summer = known.summer(precision);
        let mut scores = Vec::with_capacity(most);
        let mut of_doc: Vec<(usize, f64)> = Vec::new();
        let mut current = None;
        while let Some(Reverse((doc, i))) = heads.pop() {
            let Some((_, value)) = next[i].take() else {
                continue;
            };
            if current != Some(doc) {
                if let Some(done) = current {
                    scores.push((done, summer.sum(&of_doc)));
                }
                of_doc.clear();
                current = Some(doc);
            }
            of_doc.push((streams[i].term, value));
            next[i] = once(&mut streams[i]);
            if let Some((doc, _)) = next[i] {
                heads.push(Reverse((doc, i)));
            }
        }
        if let Some(done) = current {
            scores.push((done, summer.sum(&of_doc)));
        }
        Ok(scores)
    }

    /// The fragment among `fragments` that holds the terms at `position`
    /// of `dir` (see [`FieldDirectory::position`]).
    pub(super) fn holder<'f>(
        &self,
        dir: &FieldDirectory,
        position: usize,
        fragments: &[&'f TermFragment],
    ) -> Result<&'f TermFragment, FragmentError> {
        let number = dir.fragments[position];
        fragments
            .iter()
            .find(|f| f.number == number && f.field == dir.field)
            .copied()
            .ok_or_else(|| FragmentError::Missing {
                file: self.fragments[number].file.clone(),
            })
    }

    /// The best `k` documents scoring above zero, in the order
    /// [`crate::search::Searcher::search`] gives over the blob, selected by
    /// the same code from the documents the query touched.
    pub fn rank<S: AsRef<str>>(
        &self,
        field: Field,
        params: Bm25Params,
        tokens: &[S],
        fragments: &[&TermFragment],
        k: usize,
    ) -> Result<Vec<Hit>, FragmentError> {
        let scores = self.scores(field, params, tokens, fragments)?;
        let touched = scores.into_iter().map(|(doc, score)| Hit { doc, score });
        let mut hits = Vec::new();
        top_k_of(touched, k, true, &mut hits);
        Ok(hits)
    }
}

/// One query term's postings with their documents' lengths, read in
/// document order, and its idf.
struct TermStream<'a> {
    term: usize,
    postings: std::iter::Zip<Postings<'a>, std::slice::Iter<'a, u32>>,
    idf: f64,
}

/// The fragment's terms are ascending and inside its directory range.
fn check_range(dir: &FieldDirectory, position: usize, terms: &[String]) -> Result<(), String> {
    if terms.windows(2).any(|w| w[0] >= w[1]) {
        return Err("terms not ascending".into());
    }
    let first_ok = terms.first() == dir.first_terms.get(position);
    let end = dir.first_terms.get(position + 1);
    let last_ok = match (terms.last(), end) {
        (Some(last), Some(end)) => last < end,
        (last, None) => last.is_some(),
        (None, Some(_)) => false,
    };
    if first_ok && last_ok {
        Ok(())
    } else {
        Err("terms outside the range the meta gives the fragment".into())
    }
}
