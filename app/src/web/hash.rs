//! Digests for checking downloads before use.

use sha2::{Digest, Sha256, Sha384};

/// Lower-case hex SHA-256, as model manifests write it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Base64 SHA-384, as Subresource Integrity writes it.
pub fn sha384_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    // 48 bytes: whole 3-byte groups, no padding.
    Sha384::digest(bytes)
        .chunks(3)
        .flat_map(|g| {
            let n = (u32::from(g[0]) << 16) | (u32::from(g[1]) << 8) | u32::from(g[2]);
            [18, 12, 6, 0].map(|s| ALPHABET[(n >> s & 63) as usize] as char)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers (FIPS 180-2 examples, "abc").
    #[test]
    fn digests_match_the_standard() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha384_base64(b"abc"),
            "ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }
}
