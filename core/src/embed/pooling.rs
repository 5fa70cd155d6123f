//! How a document becomes the vectors stored for it. e5 reads at most 510
//! content tokens at once, and many statute articles are longer, so a long
//! article is cut into windows ([`super::TextEncoder::batch`]); the pooling
//! says which windows are embedded, how they are combined, and whether the
//! article's heading goes first. docs/benchmarks/long-articles.md ("Long articles") compares
//! them; [`Pooling::DEFAULT`] is the winner there.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Which windows of a text are embedded and how they are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Windows {
    /// The first window only (FirstP): the text truncated as e5 was trained.
    First,
    /// Every window, averaged by content tokens into one vector (AvgP).
    Average,
    /// One vector per window; the document scores as its best (MaxP).
    Max,
}

/// A document's pooling: its windows, and whether its heading is put before
/// its text (`passage: heading\ntext`) where it has one. Which titles are
/// headings is the source's to say (the builder passes an empty heading
/// for the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pooling {
    /// Which windows, combined how.
    pub windows: Windows,
    /// The heading first, where the document has one.
    pub title: bool,
}

impl Pooling {
    /// What `nomos build --embed` uses unless told otherwise: the heading
    /// first, one vector per window. Best or tied for best on every set of
    /// docs/benchmarks/long-articles.md's comparison ("Long articles"): the first window with
    /// the heading finds an article by its subject, the later windows by
    /// what its later paragraphs say.
    pub const DEFAULT: Pooling = Pooling::new(Windows::Max, true);

    /// Every pooling, for comparisons.
    pub const ALL: [Pooling; 6] = [
        Pooling::new(Windows::First, false),
        Pooling::new(Windows::Average, false),
        Pooling::new(Windows::Max, false),
        Pooling::new(Windows::First, true),
        Pooling::new(Windows::Average, true),
        Pooling::new(Windows::Max, true),
    ];

    /// `windows`, with the heading first when `title`.
    pub const fn new(windows: Windows, title: bool) -> Pooling {
        Pooling { windows, title }
    }

    /// The text to embed for a document with `title` and `text`.
    pub fn passage<'a>(&self, title: &str, text: &'a str) -> Cow<'a, str> {
        match (self.title, title.trim()) {
            (true, heading) if !heading.is_empty() => Cow::Owned(format!("{heading}\n{text}")),
            _ => Cow::Borrowed(text),
        }
    }

    /// Whether a document may have several vectors.
    pub fn multi_vector(&self) -> bool {
        self.windows == Windows::Max
    }

    /// A short description for people (`nomos info`, the app).
    pub fn describe(&self) -> String {
        let windows = match self.windows {
            Windows::First => "first 510 tokens",
            Windows::Average => "average of 510-token windows",
            Windows::Max => "best of 510-token windows",
        };
        match self.title {
            true => format!("heading + {windows}"),
            false => windows.to_owned(),
        }
    }
}

impl Default for Pooling {
    fn default() -> Self {
        Pooling::DEFAULT
    }
}

/// `first`, `average`, `max`, with `title+` before for the heading-first
/// forms: the text form blobs and the CLI use.
impl fmt::Display for Pooling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.title {
            f.write_str("title+")?;
        }
        f.write_str(match self.windows {
            Windows::First => "first",
            Windows::Average => "average",
            Windows::Max => "max",
        })
    }
}

/// A text that names no pooling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPooling(pub String);

impl fmt::Display for UnknownPooling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown pooling `{}` (first, average, max, title+first, title+average, title+max)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPooling {}

impl FromStr for Pooling {
    type Err = UnknownPooling;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (title, rest) = match s.strip_prefix("title+") {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let windows = match rest {
            "first" => Windows::First,
            "average" => Windows::Average,
            "max" => Windows::Max,
            _ => return Err(UnknownPooling(s.to_owned())),
        };
        Ok(Pooling { windows, title })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms_round_trip() {
        for p in Pooling::ALL {
            assert_eq!(p.to_string().parse::<Pooling>(), Ok(p));
        }
        assert_eq!(Pooling::ALL.map(|p| p.to_string())[5], "title+max");
        assert!("title+".parse::<Pooling>().is_err());
        assert!("MaxP".parse::<Pooling>().is_err());
    }

    #[test]
    fn the_heading_goes_first_only_when_asked_and_present() {
        let title_first: Pooling = "title+first".parse().unwrap();
        assert_eq!(
            title_first.passage(" Σκοπός ", "Κείμενο"),
            "Σκοπός\nΚείμενο"
        );
        assert_eq!(title_first.passage("  ", "Κείμενο"), "Κείμενο");
        let first: Pooling = "first".parse().unwrap();
        assert_eq!(first.passage("Σκοπός", "Κείμενο"), "Κείμενο");
    }
}
