//! Unsigned LEB128 varints for `u32`: 7 value bits per byte, low bits first,
//! high bit set on every byte but the last. Small numbers (the common doc-id
//! gaps and term frequencies) take one byte.

/// Longest encoding of a `u32`: ⌈32 / 7⌉ bytes.
const MAX_LEN: usize = 5;

/// Why a varint could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarintError {
    /// The input ended before a byte without the continuation bit.
    Truncated,
    /// The value does not fit in a `u32` (more than 5 bytes, or bits set
    /// above bit 31 in the fifth byte).
    Overflow,
}

/// Appends the LEB128 encoding of `value` to `out`.
pub fn encode(mut value: u32, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads one varint from the front of `bytes`, returning the value and the
/// number of bytes it took.
#[inline]
pub fn decode(bytes: &[u8]) -> Result<(u32, usize), VarintError> {
    // Fast path: most gaps and term frequencies are below 128.
    match bytes.first() {
        None => return Err(VarintError::Truncated),
        Some(&b) if b < 0x80 => return Ok((u32::from(b), 1)),
        Some(_) => {}
    }
    let mut value: u32 = 0;
    for (i, &byte) in bytes.iter().take(MAX_LEN).enumerate() {
        let bits = u32::from(byte & 0x7f);
        if i == MAX_LEN - 1 && bits > 0x0f {
            return Err(VarintError::Overflow);
        }
        value |= bits << (7 * i);
        if byte < 0x80 {
            return Ok((value, i + 1));
        }
    }
    if bytes.len() < MAX_LEN {
        Err(VarintError::Truncated)
    } else {
        Err(VarintError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_edges_and_lengths() {
        let cases: [(u32, usize); 10] = [
            (0, 1),
            (1, 1),
            (127, 1),
            (128, 2),
            (16_383, 2),
            (16_384, 3),
            (2_097_151, 3),
            (2_097_152, 4),
            (268_435_456, 5),
            (u32::MAX, 5),
        ];
        for (value, len) in cases {
            let mut buf = Vec::new();
            encode(value, &mut buf);
            assert_eq!(buf.len(), len, "length of {value}");
            assert_eq!(decode(&buf), Ok((value, len)));
            // Trailing bytes are not consumed.
            buf.push(0x55);
            assert_eq!(decode(&buf), Ok((value, len)));
        }
    }

    #[test]
    fn round_trip_sequence() {
        let values: Vec<u32> = (0..2000u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let mut buf = Vec::new();
        for &v in &values {
            encode(v, &mut buf);
        }
        let mut rest = &buf[..];
        for &v in &values {
            let (got, used) = decode(rest).unwrap();
            assert_eq!(got, v);
            rest = &rest[used..];
        }
        assert!(rest.is_empty());
    }

    #[test]
    fn truncated_input_is_an_error() {
        assert_eq!(decode(&[]), Err(VarintError::Truncated));
        assert_eq!(decode(&[0x80]), Err(VarintError::Truncated));
        assert_eq!(
            decode(&[0xff, 0xff, 0xff, 0xff]),
            Err(VarintError::Truncated)
        );
    }

    #[test]
    fn values_above_u32_are_an_error() {
        // 2^32 needs bit 4 of the fifth byte.
        assert_eq!(
            decode(&[0x80, 0x80, 0x80, 0x80, 0x10]),
            Err(VarintError::Overflow)
        );
        // Six-byte encodings never fit.
        assert_eq!(
            decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
            Err(VarintError::Overflow)
        );
    }
}
