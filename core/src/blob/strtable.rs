//! Building, validating and reading [`StrTable`]s.

use super::format::{ArchivedStrTable, StrTable};
use super::BlobError;

impl StrTable {
    /// Packs `items` in order; fails if the text outgrows `u32` offsets.
    pub fn build<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<StrTable, BlobError> {
        let mut table = StrTable::default();
        for item in items {
            table.text.push_str(item);
            let end = u32::try_from(table.text.len())
                .map_err(|_| BlobError::Input("more than 4 GiB of strings in one table".into()))?;
            table.ends.push(end);
        }
        Ok(table)
    }
}

impl ArchivedStrTable {
    /// Number of strings.
    pub fn count(&self) -> usize {
        self.ends.len()
    }

    /// String `i`, or `None` past the end. Never fails on a validated table.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = self.ends.get(i)?.to_native() as usize;
        let start = match i {
            0 => 0,
            _ => self.ends.get(i - 1)?.to_native() as usize,
        };
        self.text.as_str().get(start..end)
    }

    /// Checks that the offsets never decrease, end at the text's end, and
    /// fall on character boundaries (so [`Self::get`] always succeeds), and
    /// that there are `expected` strings when a count is given.
    pub fn validate(
        &self,
        section: &'static str,
        what: &str,
        expected: Option<usize>,
    ) -> Result<(), BlobError> {
        if let Some(n) = expected {
            if self.count() != n {
                return Err(BlobError::invalid(
                    section,
                    format!("{what}: {} strings, expected {n}", self.count()),
                ));
            }
        }
        let text = self.text.as_str();
        let mut prev = 0usize;
        for (i, end) in self.ends.iter().enumerate() {
            let end = end.to_native() as usize;
            if end < prev || !text.is_char_boundary(end) {
                return Err(BlobError::invalid(
                    section,
                    format!("{what}: bad offset for string {i}"),
                ));
            }
            prev = end;
        }
        if prev != text.len() {
            return Err(BlobError::invalid(
                section,
                format!("{what}: offsets do not cover the text"),
            ));
        }
        Ok(())
    }

    /// The strings in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.count()).map(|i| self.get(i).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_through_an_archive() {
        let table = StrTable::build(["Άρθρο 1", "", "§ 2"]).unwrap();
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&table).unwrap();
        let archived = rkyv::access::<ArchivedStrTable, rkyv::rancor::Error>(&bytes).unwrap();
        archived.validate("t", "strings", Some(3)).unwrap();
        assert_eq!(archived.iter().collect::<Vec<_>>(), ["Άρθρο 1", "", "§ 2"]);
        assert_eq!(archived.get(3), None);
        assert!(archived.validate("t", "strings", Some(2)).is_err());
    }

    #[test]
    fn offsets_inside_a_character_are_rejected() {
        let table = StrTable {
            text: "Ά".into(),
            ends: vec![1, 2],
        };
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&table).unwrap();
        let archived = rkyv::access::<ArchivedStrTable, rkyv::rancor::Error>(&bytes).unwrap();
        assert!(archived.validate("t", "strings", None).is_err());
    }
}
