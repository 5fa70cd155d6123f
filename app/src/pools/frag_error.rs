//! Why a fragmented pool's query, article, explanation or download
//! failed: one type for the store's steps, so that each cause stays
//! itself until a view writes it. The messages are what the page shows.

use std::fmt;

use nomos_core::fragments::FragmentError;

use crate::format::megabytes;
use crate::semantic::ModelError;
use crate::web::{FetchError, ServiceWorkerError};

/// What went wrong on a fragmented pool.
#[derive(Debug, Clone, PartialEq)]
pub enum FragError {
    /// The meta and the pages held list no fragment of this number.
    NotListed { pool: String, n: usize },
    /// A fragment the worker does not keep, with no network: `document`
    /// when it holds documents, which keeping their act makes readable.
    Offline {
        file: String,
        document: bool,
        cause: FetchError,
    },
    /// A fragment's fetch failed otherwise (its status, its listed size).
    Fetch(FetchError),
    /// A fragment failed core's checks.
    Damaged { pool: String, cause: FragmentError },
    /// The fragment listed for the centroids holds something else.
    NoCentroids { pool: String },
    /// Core refused a step over fragments held (a page, a document, a
    /// ranking).
    Fragments(FragmentError),
    /// The chosen method cannot rank this pool: why.
    Unavailable(String),
    /// The pool's model could not be had.
    Model(ModelError),
    /// The query could not be embedded.
    Embedding(ModelError),
    /// A newer query started first (never shown: only a current query
    /// publishes).
    Superseded,
    /// The article is not among the rows shown or their references.
    NotShown { id: String },
    /// No service worker controls the page, so nothing can be kept.
    NoWorker,
    /// The browser's storage is full, after `kept` bytes, which stay kept.
    Full {
        cause: ServiceWorkerError,
        kept: u64,
    },
    /// The service worker did not keep the fragments.
    NotKept(ServiceWorkerError),
    /// The pool's fragments do not add up to what its meta says.
    PoolTotal {
        pool: String,
        held: u64,
        listed: u64,
    },
    /// An act's files do not add up to what its directory pages say.
    ActTotal { held: u64, listed: u64 },
    /// An act's size could not be read.
    Sizing(Box<FragError>),
}

impl fmt::Display for FragError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FragError::NotListed { pool, n } => {
                write!(f, "{pool}: no fragment number {n} is listed")
            }
            FragError::Offline {
                file,
                document,
                cause,
            } => {
                let hint = match document {
                    true => " (keep its act offline while online to read it with no network)",
                    false => "",
                };
                write!(
                    f,
                    "{file} is not kept for use offline, and the network did not answer{hint}: \
                     {cause}"
                )
            }
            FragError::Fetch(e) => write!(f, "{e}"),
            FragError::Damaged { pool, cause } => write!(f, "{pool} cannot be searched: {cause}"),
            FragError::NoCentroids { pool } => write!(f, "{pool} lists no centroids fragment"),
            FragError::Fragments(e) => write!(f, "{e}"),
            FragError::Unavailable(why) => write!(f, "{why}"),
            FragError::Model(e) => write!(f, "semantic search is unavailable: {e}"),
            FragError::Embedding(e) => write!(f, "the query could not be embedded: {e}"),
            FragError::Superseded => write!(f, "superseded by a newer query"),
            FragError::NotShown { id } => {
                write!(f, "article {id} is not among the results shown")
            }
            FragError::NoWorker => write!(
                f,
                "no service worker controls this page (a private window, or a host without \
                 https): it cannot be kept for offline use"
            ),
            FragError::Full { cause, kept } => write!(
                f,
                "{cause}: stopped after {} kept, which stays kept; free some space and try again",
                megabytes(*kept)
            ),
            FragError::NotKept(e) => {
                write!(f, "the service worker did not keep the fragments: {e}")
            }
            FragError::PoolTotal { pool, held, listed } => write!(
                f,
                "{pool}: its fragments hold {held} bytes, its meta says {listed}"
            ),
            FragError::ActTotal { held, listed } => write!(
                f,
                "its files hold {held} bytes, its directory pages say {listed}"
            ),
            FragError::Sizing(e) => write!(f, "its size could not be read: {e}"),
        }
    }
}

impl From<FragmentError> for FragError {
    fn from(e: FragmentError) -> Self {
        FragError::Fragments(e)
    }
}

#[cfg(test)]
mod tests {
    use crate::pools::frag_error::FragError;
    use crate::web::FetchError;

    #[test]
    fn a_documents_fragment_offline_says_how_to_read_it_then() {
        let cause = FetchError::Network {
            url: "/indexes/da/ab.frag".into(),
            message: "offline".into(),
        };
        let e = FragError::Offline {
            file: "ab.frag".into(),
            document: true,
            cause: cause.clone(),
        };
        assert!(e
            .to_string()
            .starts_with("ab.frag is not kept for use offline, and the network did not answer (keep its act offline"));
        let e = FragError::Offline {
            file: "ab.frag".into(),
            document: false,
            cause,
        };
        assert!(e.to_string().contains("did not answer: "));
        let sized = FragError::Sizing(Box::new(FragError::NotShown { id: "x".into() }));
        assert_eq!(
            sized.to_string(),
            "its size could not be read: article x is not among the results shown"
        );
    }
}
