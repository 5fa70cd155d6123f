//! Subresource Integrity's digest, for checking ONNX Runtime's wasm as
//! the browser checks its script (manifests' SHA-256 is core's
//! `digest::sha256_hex`).

use sha2::{Digest, Sha384};

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

    /// Known answer (FIPS 180-2's "abc").
    #[test]
    fn digest_matches_the_standard() {
        assert_eq!(
            sha384_base64(b"abc"),
            "ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn"
        );
    }
}
