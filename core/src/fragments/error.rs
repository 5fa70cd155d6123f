use std::fmt;

use crate::blob::BlobError;

/// Why fragments could not be written, or a query could not be ranked
/// over them. A damaged or missing file fails the query; it never yields
/// a ranking.
#[derive(Debug, Clone, PartialEq)]
pub enum FragmentError {
    /// The meta file is damaged, of another version, or inconsistent.
    Meta(BlobError),
    /// A fragment is damaged, or is not the file the meta lists.
    Fragment {
        /// Its file name, as the meta lists it.
        file: String,
        /// What is wrong, as the end of a sentence.
        problem: String,
    },
    /// The query needs a fragment the caller did not give.
    Missing {
        /// Its file name.
        file: String,
    },
    /// A bad request: an unknown fragment number or field, a blob that
    /// cannot be fragmented, a size limit too small.
    Input(String),
}

impl fmt::Display for FragmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FragmentError::Meta(e) => write!(f, "the pool's meta file is refused: {e}"),
            FragmentError::Fragment { file, problem } => write!(f, "fragment `{file}` {problem}"),
            FragmentError::Missing { file } => {
                write!(
                    f,
                    "fragment `{file}` is needed for this query but was not given"
                )
            }
            FragmentError::Input(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for FragmentError {}
