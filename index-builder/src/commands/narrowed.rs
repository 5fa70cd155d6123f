//! What `nomos search` adds for the app's filters, on a blob and on a
//! fragmented pool alike: whether the whole ranking is needed, and the
//! facet lines it prints.

use std::io::Write;

use anyhow::Result;
use nomos_core::facets::{FacetCounts, Narrowing};

use crate::cli::SearchArgs;

/// Whether the whole ranking is wanted: for filters or facets.
pub(super) fn wanted(args: &SearchArgs) -> bool {
    args.facets || args.narrowing.narrowing() != Narrowing::default()
}

/// `facet<TAB>NAME<TAB>VALUE<TAB>COUNT` lines, each facet's values most
/// first (years: the latest first), as the app lists them.
pub(super) fn print_facets(out: &mut impl Write, counts: &FacetCounts) -> Result<()> {
    let groups = [
        ("source", &counts.source),
        ("area", &counts.area),
        ("type", &counts.kind),
        ("year", &counts.year),
    ];
    for (name, values) in groups {
        for (value, n) in values {
            writeln!(out, "facet\t{name}\t{value}\t{n}")?;
        }
    }
    Ok(())
}
