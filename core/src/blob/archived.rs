//! Reading one archived section: copied to aligned storage and checked by
//! rkyv's bytecheck. Shared by loading a blob, attaching its siblings and
//! reading a fragmented pool's files.

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::BlobError;

/// One section's bytes, copied to aligned storage for rkyv.
pub(crate) fn aligned(bytes: &[u8]) -> AlignedVec<16> {
    let mut out = AlignedVec::<16>::with_capacity(bytes.len());
    out.extend_from_slice(bytes);
    out
}

/// rkyv's bytecheck validation of one section.
/// `bytes` must start at an address aligned to 16 (a whole [`AlignedVec`],
/// or a range of a loaded blob's kept bytes that starts at a multiple of 16).
pub(crate) fn access<'a, T>(bytes: &'a [u8], section: &'static str) -> Result<&'a T, BlobError>
where
    T: rkyv::Portable
        + for<'b> rkyv::bytecheck::CheckBytes<rkyv::api::high::HighValidator<'b, rancor::Error>>,
{
    rkyv::access::<T, rancor::Error>(bytes).map_err(|e| archive_error(section, e))
}

pub(super) fn archive_error(section: &'static str, e: rancor::Error) -> BlobError {
    BlobError::Archive {
        section,
        message: e.to_string(),
    }
}
