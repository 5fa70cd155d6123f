//! The most the app reads of a file whose size nothing lists, one cap
//! per kind (see `web::Limit`). Files a manifest or meta lists are read up
//! to their listed size instead, and blobs also within their own cap
//! (`blob_intake::MAX_BLOB_BYTES`, with the checks of their first bytes).
//! Each cap is far above what the file holds in practice and far below
//! what would strain a tab: it bounds what a hostile link, server or file
//! can make the page hold.

use crate::web::Cap;

const MB: u64 = 1_000_000;

/// The site's `indexes/manifest.json`: under 1 kB a pool (8 kB for the
/// demo's eight), so 4 MB lists thousands of pools.
pub const POOL_MANIFEST: Cap = Cap {
    kind: "pool manifest",
    bytes: 4 * MB,
};

/// A model's manifest (the embedding model's, the in-page LLM's): a few
/// kB of names, sizes and hashes.
pub const MODEL_MANIFEST: Cap = Cap {
    kind: "model manifest",
    bytes: MB,
};

/// The site's `transcripts/index.json`: a few hundred bytes a transcript.
pub const TRANSCRIPT_INDEX: Cap = Cap {
    kind: "transcript list",
    bytes: 4 * MB,
};

/// A transcript, fetched (a link's `tpath`, the site's list, a typed URL)
/// or picked: about 10 kB a query for the demo's ReAct runs, so 64 MB
/// holds four runs over all of STARD's 1,543 queries. A link cannot make
/// the page read a model's weights (98 MB for the in-page LLM) as one.
pub const TRANSCRIPT: Cap = Cap {
    kind: "transcript",
    bytes: 64 * MB,
};

/// A run file opened in Evaluate: a line of about 50 bytes a ranked
/// article, so 64 MB holds the top 100 of 10,000 queries.
pub const RUN_FILE: Cap = Cap {
    kind: "run file",
    bytes: 64 * MB,
};

/// Each of a judgments export's two files (qrels and queries.jsonl): a
/// line a judgment or query, as a person makes them.
pub const JUDGMENTS: Cap = Cap {
    kind: "judgments file",
    bytes: 64 * MB,
};

/// An LLM endpoint's answer to one request: a completion of at most a
/// few thousand tokens, wrapped in JSON.
pub const ENDPOINT_REPLY: Cap = Cap {
    kind: "answer from an LLM endpoint",
    bytes: 16 * MB,
};
