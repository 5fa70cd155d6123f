//! Every fuzz target's check on its committed seeds (`seeds/<target>/`) and
//! on every input that ever made it fail (`regressions/<target>/`, where
//! `scripts/fuzz.sh` saves them), so a fixed crash stays fixed.

use std::path::Path;

use nomos_core::blob::{Blob, SiblingKind};
use nomos_core::fragments::{relist, Meta};
use nomos_fuzz::tiny;

#[test]
fn seeds_and_regressions_pass_every_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (target, check) in nomos_fuzz::TARGETS {
        let mut seeds = 0;
        for folder in ["seeds", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(folder).join(target)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                seeds += usize::from(folder == "seeds");
                let bytes = std::fs::read(&path).unwrap();
                let outcome = std::panic::catch_unwind(|| check(&bytes));
                assert!(outcome.is_ok(), "{target}: {} fails", path.display());
            }
        }
        assert!(seeds > 0, "{target} has no seeds");
    }
}

/// The seeds made of the tiny pool (the blob, its siblings, its
/// fragmented files) are what it makes today, and load: after a format
/// change they would be files the readers refuse at once, and the fuzzer
/// would then explore little. After such a change, rewrite them with
/// `NOMOS_WRITE_SEED=1 cargo test -p nomos-fuzz the_pool_seeds`.
#[test]
fn the_pool_seeds_are_current_and_load() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds");
    let write = std::env::var_os("NOMOS_WRITE_SEED").is_some();
    for (target, name, bytes) in pool_seeds() {
        let path = root.join(target).join(&name);
        if write {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        assert!(
            std::fs::read(&path).ok() == Some(bytes),
            "seeds/{target}/{name} is not what the tiny pool makes today: rewrite the seeds \
             with NOMOS_WRITE_SEED=1 cargo test -p nomos-fuzz the_pool_seeds"
        );
    }
    let light = tiny::light();
    let mut blob = Blob::load(&light.blob).unwrap();
    for (sibling, bytes) in &light.siblings {
        blob.attach(sibling.kind, bytes).unwrap();
    }
    // Every fragment the meta lists, relisted as itself, leaves the meta as
    // it was: the check's relisting keeps a seed the file it was.
    let pool = tiny::fragmented();
    let meta = Meta::load(&pool.meta).unwrap();
    for n in 0..meta.fragments().len() {
        let mut relisted = pool.meta.clone();
        relist(&mut relisted, n, &pool.fragments[n].1).unwrap();
        assert!(relisted == pool.meta, "fragment {n}");
    }
}

/// Each seed's target, file name and bytes: a selector byte before a
/// sibling or fragmented file says which file it is (see the checks).
fn pool_seeds() -> Vec<(&'static str, String, Vec<u8>)> {
    let with = |which: u8, bytes: &[u8]| [&[which][..], bytes].concat();
    let mut seeds = vec![
        ("blob_open", "tiny.blob".to_owned(), tiny::tiny_blob()),
        (
            "blob_open",
            "tiny-light.blob".to_owned(),
            tiny::light().blob.clone(),
        ),
    ];
    for (sibling, bytes) in &tiny::light().siblings {
        let which = SiblingKind::ALL
            .iter()
            .position(|k| *k == sibling.kind)
            .unwrap();
        seeds.push((
            "siblings",
            sibling.kind.name().to_owned(),
            with(which as u8, bytes),
        ));
    }
    let pool = tiny::fragmented();
    seeds.push(("fragments", "meta".to_owned(), with(0, &pool.meta)));
    for (n, (listed, bytes)) in pool.fragments.iter().enumerate() {
        let name = format!("{n:02}-{:?}", listed.kind).to_lowercase();
        seeds.push(("fragments", name, with(n as u8 + 1, bytes)));
    }
    seeds
}
