//! Parquet through the crate's record API: no Arrow, just rows of fields.
//! Snappy (the `datasets`/pyarrow default), zstd, gzip and lz4 pages are
//! decompressed by the codec features enabled in Cargo.toml. The file's
//! layout is checked first ([`pages`]), since the crate trusts it.

mod pages;
mod thrift;

use std::sync::Arc;

use anyhow::Result;
use bytes::Bytes;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use serde_json::{Map, Number, Value};

use super::{Position, Row};
use crate::error::{bad_input, catch_panic};

pub(super) fn rows(file: &Arc<str>, bytes: Vec<u8>) -> Result<Vec<Row>> {
    let bytes = Bytes::from(bytes);
    let reader = SerializedFileReader::new(bytes.clone())
        .map_err(|e| bad_input(format!("{file}: not a readable Parquet file: {e}")))?;
    pages::check(reader.metadata(), &bytes)
        .map_err(|e| bad_input(format!("{file}: damaged Parquet file: {e}")))?;
    // The checks above cover the sizes the crate trusts; what is left is the
    // encoded values themselves, and the crate's decoders still assert on
    // some malformed ones (a bit width past the end of its page). Checking
    // those would mean decoding twice, so such a panic is caught, here only,
    // and reported as damaged input.
    let mut row_no = 0;
    catch_panic(|| decode(file, &reader, &mut row_no)).unwrap_or_else(|why| {
        Err(bad_input(format!(
            "{file}: row {}: damaged Parquet data (the decoder failed: {why})",
            row_no + 1
        )))
    })
}

/// All rows, counting them in `row_no` so a failure can say where.
fn decode(
    file: &Arc<str>,
    reader: &SerializedFileReader<Bytes>,
    row_no: &mut usize,
) -> Result<Vec<Row>> {
    let iter = reader
        .get_row_iter(None)
        .map_err(|e| bad_input(format!("{file}: cannot read rows: {e}")))?;
    let mut out = Vec::new();
    for row in iter {
        let row = row.map_err(|e| bad_input(format!("{file}: row {}: {e}", *row_no + 1)))?;
        *row_no += 1;
        let fields: Map<String, Value> = row
            .get_column_iter()
            .map(|(name, field)| (name.clone(), to_json(field)))
            .collect();
        out.push(Row::new(file, Position::Row(*row_no), fields));
    }
    Ok(out)
}

/// Strings, numbers, booleans and lists map to their JSON counterparts;
/// anything else (dates, decimals, binary, structs) becomes its display text,
/// which only matters if a reader asks for such a column.
fn to_json(field: &Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Bool(b) => Value::Bool(*b),
        Field::Str(s) => Value::String(s.clone()),
        Field::Byte(n) => Value::from(*n),
        Field::Short(n) => Value::from(*n),
        Field::Int(n) => Value::from(*n),
        Field::Long(n) => Value::from(*n),
        Field::UByte(n) => Value::from(*n),
        Field::UShort(n) => Value::from(*n),
        Field::UInt(n) => Value::from(*n),
        Field::ULong(n) => Value::from(*n),
        Field::Float(f) => float(f64::from(*f)),
        Field::Double(f) => float(*f),
        Field::ListInternal(list) => Value::Array(list.elements().iter().map(to_json).collect()),
        other => Value::String(other.to_string()),
    }
}

fn float(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}
