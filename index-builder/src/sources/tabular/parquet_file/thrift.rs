//! Just enough of Thrift's compact protocol to read a Parquet page header:
//! the `parquet` crate parses headers only while it decodes pages, after it
//! has trusted their sizes, so [`super::pages`] reads them first.

use std::fmt;

/// Nesting deeper than this is refused (headers nest three levels; a
/// crafted header could nest until the stack overflows).
const MAX_DEPTH: usize = 16;

#[derive(Debug)]
pub(super) struct Malformed(&'static str);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed page header ({})", self.0)
    }
}

type Result<T> = std::result::Result<T, Malformed>;

/// Compact-protocol type codes the page checks look at.
pub(super) const TRUE: u8 = 1;
pub(super) const FALSE: u8 = 2;
pub(super) const I32: u8 = 5;
pub(super) const STRUCT: u8 = 12;

pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Bytes consumed so far.
    pub(super) fn position(&self) -> usize {
        self.pos
    }

    /// Reads a struct's fields in order, handing each field's id and type
    /// code to `field`, which reads the value (with [`Reader::int`] or a
    /// nested `fields`) and returns true, or returns false to have it skipped.
    pub(super) fn fields(
        &mut self,
        depth: usize,
        field: &mut dyn FnMut(&mut Self, i16, u8) -> Result<bool>,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Malformed("nested too deeply"));
        }
        let mut id: i16 = 0;
        loop {
            let head = self.byte()?;
            let kind = head & 0x0f;
            if kind == 0 {
                return Ok(());
            }
            id = match head >> 4 {
                0 => i16::try_from(self.int()?).map_err(|_| Malformed("field id"))?,
                delta => id
                    .checked_add(i16::from(delta))
                    .ok_or(Malformed("field id"))?,
            };
            if !field(self, id, kind)? {
                self.skip(kind, depth + 1)?;
            }
        }
    }

    /// An i16, i32 or i64 value, widened: a claim that overflows i32 is seen
    /// as such, not truncated.
    pub(super) fn int(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn skip(&mut self, kind: u8, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Malformed("nested too deeply"));
        }
        match kind {
            TRUE | FALSE => Ok(()),
            3 => self.take(1).map(drop),
            4..=6 => self.int().map(drop),
            7 => self.take(8).map(drop),
            8 => {
                let len = self.length()?;
                self.take(len).map(drop)
            }
            9 | 10 => {
                let head = self.byte()?;
                let len = match head >> 4 {
                    15 => self.length()?,
                    n => usize::from(n),
                };
                let element = head & 0x0f;
                for _ in 0..len {
                    // Booleans in lists take a byte each.
                    if element == TRUE || element == FALSE {
                        self.take(1)?;
                    } else {
                        self.skip(element, depth + 1)?;
                    }
                }
                Ok(())
            }
            11 => {
                let len = self.length()?;
                if len > 0 {
                    let kinds = self.byte()?;
                    for _ in 0..len {
                        self.skip(kinds >> 4, depth + 1)?;
                        self.skip(kinds & 0x0f, depth + 1)?;
                    }
                }
                Ok(())
            }
            STRUCT => self.fields(depth, &mut |_, _, _| Ok(false)),
            _ => Err(Malformed("unknown field type")),
        }
    }

    fn byte(&mut self) -> Result<u8> {
        self.take(1).map(|b| b[0])
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(Malformed("truncated"))?;
        let out = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    fn varint(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            if shift == 63 && b > 1 {
                break;
            }
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Malformed("integer too long"))
    }

    fn length(&mut self) -> Result<usize> {
        usize::try_from(self.varint()?).map_err(|_| Malformed("length"))
    }
}
