//! Batch layout and pooling. Tokenizer parity with the reference is tested
//! against fixtures in `core/tests/embed_tokenizer.rs`.

use super::batch::{Batch, Window};
use super::Windows;

fn batch(rows: &[Vec<u32>], windows: &[(usize, usize)], texts: usize) -> Batch {
    batch_as(rows, windows, texts, Windows::Average)
}

fn batch_as(rows: &[Vec<u32>], windows: &[(usize, usize)], texts: usize, mode: Windows) -> Batch {
    let windows = windows
        .iter()
        .map(|&(text, content_tokens)| Window {
            text,
            content_tokens,
        })
        .collect();
    Batch::from_rows(rows, 1, windows, texts, mode)
}

#[test]
fn rows_are_padded_and_masked() {
    let b = batch(&[vec![0, 7, 2], vec![0, 2]], &[(0, 1), (1, 0)], 2);
    assert_eq!(b.shape(), [2, 3]);
    assert_eq!(b.input_ids(), &[0, 7, 2, 0, 2, 1]);
    assert_eq!(b.attention_mask(), &[1, 1, 1, 1, 1, 0]);
}

#[test]
fn padding_does_not_change_a_vector() {
    // The same row alone and padded beside a longer one pools identically.
    let alone = batch(&[vec![0, 5, 2]], &[(0, 1)], 1);
    let padded = batch(&[vec![0, 5, 6, 7, 2], vec![0, 5, 2]], &[(0, 3), (1, 1)], 2);
    let states = [0.5f32, -1.0, 2.0, 0.25, -3.0, 1.5];
    let junk = [9.0f32, 9.0, 9.0, 9.0];
    let mut long = vec![1.0f32; 10];
    long.extend_from_slice(&states);
    long.extend_from_slice(&junk);
    let a = alone.pool(&states, 2).unwrap();
    let p = padded.pool(&long, 2).unwrap();
    assert_eq!(a, p[2..].to_vec());
}

#[test]
fn pooled_vectors_have_unit_length() {
    let b = batch(&[vec![0, 5, 2]], &[(0, 1)], 1);
    let v = b.pool(&[3.0, 4.0, 3.0, 4.0, 3.0, 4.0], 2).unwrap();
    let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-6, "{v:?}");
    assert!(
        (v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6,
        "{v:?}"
    );
}

#[test]
fn windows_of_one_text_are_weighted_by_content_tokens() {
    // Window 1 (3 content tokens) points along x, window 2 (1 token) along
    // y: the text's direction is 3:1.
    let b = batch(&[vec![0, 5, 5, 5, 2], vec![0, 5, 2]], &[(0, 3), (0, 1)], 1);
    let mut hidden = [1.0f32, 0.0].repeat(5);
    hidden.extend([0.0f32, 1.0].repeat(5));
    let v = b.pool(&hidden, 2).unwrap();
    assert!((v[0] / v[1] - 3.0).abs() < 1e-5, "{v:?}");
}

#[test]
fn max_pooling_keeps_one_unit_vector_per_window() {
    // Text 0 has two windows (along x, then along y), text 1 one; the
    // windows' own directions survive, in order, each of unit length.
    let rows = [vec![0, 5, 5, 5, 2], vec![0, 5, 2], vec![0, 6, 2]];
    let b = batch_as(&rows, &[(0, 3), (0, 1), (1, 1)], 2, Windows::Max);
    let mut hidden = [2.0f32, 0.0].repeat(5);
    hidden.extend([0.0f32, 3.0].repeat(5));
    hidden.extend([3.0f32, 4.0].repeat(5));
    let v = b.vectors(&hidden, 2).unwrap();
    assert_eq!(v, [vec![1.0, 0.0, 0.0, 1.0], vec![0.6, 0.8]]);
    // The same batch averaged gives one vector per text, as `pool`.
    let avg = batch_as(&rows, &[(0, 3), (0, 1), (1, 1)], 2, Windows::Average);
    let pooled = avg.pool(&hidden, 2).unwrap();
    assert_eq!(avg.vectors(&hidden, 2).unwrap().concat(), pooled);
}

#[test]
fn wrong_output_size_is_an_error() {
    let b = batch(&[vec![0, 2]], &[(0, 0)], 1);
    assert!(b.pool(&[0.0; 3], 2).is_err());
    assert!(b.pool(&[], 0).is_err());
}

#[test]
fn a_session_is_checked_against_the_manifest_interface() {
    let onnx = super::OnnxInterface {
        opset: 17,
        inputs: vec!["input_ids".into(), "attention_mask".into()],
        output: "last_hidden_state".into(),
    };
    let inputs = ["attention_mask", "input_ids"];
    assert_eq!(
        onnx.check(inputs, ["last_hidden_state"]),
        Ok(["input_ids".to_owned(), "attention_mask".to_owned()])
    );
    let err = onnx
        .check(["input_ids"], ["last_hidden_state"])
        .unwrap_err();
    assert!(
        err.contains("lacks input input_ids or attention_mask"),
        "{err}"
    );
    assert!(onnx.check(inputs, ["pooler_output"]).is_err());
    let one = super::OnnxInterface {
        inputs: vec!["input_ids".into()],
        ..onnx
    };
    assert!(one
        .check(inputs, ["last_hidden_state"])
        .unwrap_err()
        .contains("not [input_ids"));
}
