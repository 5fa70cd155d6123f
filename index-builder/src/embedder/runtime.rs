//! ONNX Runtime, loaded at run time (`ort`'s `load-dynamic`): nomos links
//! no native library and downloads nothing at build time. The library is
//! the one the PyPI `onnxruntime` wheel ships, which `nomos model prepare`
//! installs into `.venv-model` anyway.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Result;
use ort::environment::Environment;

use crate::error::bad_input;

/// The venv `nomos model prepare` creates (see `ModelPrepareArgs::venv`).
const VENV: &str = ".venv-model";

/// Where to look up the library when it is not given, for error messages.
const HOW_TO_GET_IT: &str = "give --ort-lib PATH or set ORT_DYLIB_PATH to a libonnxruntime \
     (1.30 or newer), or run `nomos model prepare`, which installs the onnxruntime wheel \
     into .venv-model where nomos finds it";

/// The library to load, in order: `explicit` (`--ort-lib`), the
/// `ORT_DYLIB_PATH` environment variable, then the onnxruntime wheel in a
/// `.venv-model` in the current directory or in a directory holding
/// `model_dir` (so `models/e5-small` finds the repository's venv from
/// anywhere).
pub fn locate(explicit: Option<&Path>, model_dir: &Path) -> Result<PathBuf> {
    if let Some(path) = explicit {
        return Ok(path.to_path_buf());
    }
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let mut roots = vec![PathBuf::from(".")];
    if let Ok(model_dir) = model_dir.canonicalize() {
        roots.extend(model_dir.ancestors().skip(1).map(Path::to_path_buf));
    }
    roots
        .iter()
        .find_map(|root| in_venv(&root.join(VENV)))
        .ok_or_else(|| {
            bad_input(format!(
                "no ONNX Runtime library found (none in ./{VENV} or above {}): {HOW_TO_GET_IT}",
                model_dir.display()
            ))
        })
}

/// `lib/python3.*/site-packages/onnxruntime/capi/libonnxruntime.so.<version>`
/// (or `.dylib`) inside a venv, if any.
fn in_venv(venv: &Path) -> Option<PathBuf> {
    let lib = venv.join("lib");
    let mut pythons: Vec<PathBuf> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("python"))
        })
        .collect();
    pythons.sort();
    pythons.into_iter().rev().find_map(|python| {
        let capi = python.join("site-packages/onnxruntime/capi");
        let mut libs: Vec<PathBuf> = std::fs::read_dir(capi)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name().is_some_and(|n| {
                    let n = n.to_string_lossy();
                    n.starts_with("libonnxruntime.so") || n.starts_with("libonnxruntime.dylib")
                })
            })
            .collect();
        libs.sort();
        libs.pop()
    })
}

/// Where a model runs: ONNX Runtime's execution provider.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Provider {
    /// The CPU, every core (the library the `onnxruntime` wheel ships).
    #[default]
    Cpu,
    /// An NVIDIA GPU through `CUDAExecutionProvider`, which needs the
    /// `onnxruntime-gpu` wheel's library (`--ort-lib`) with CUDA 13 and
    /// cuDNN 9 installed.
    Cuda,
}

/// The ONNX Runtime library to load and the provider to run on.
#[derive(Debug, Clone, Copy, Default)]
pub struct Runtime<'a> {
    /// The library; `None`: the one [`locate`] finds.
    pub lib: Option<&'a Path>,
    pub provider: Provider,
}

/// The process's ONNX Runtime environment, made on first use from `lib`.
/// ONNX Runtime allows one library and one environment per process, so a
/// later call asking for another library is refused rather than ignored.
pub fn environment(lib: &Path) -> Result<Environment> {
    static LOADED: Mutex<Option<(PathBuf, Environment)>> = Mutex::new(None);
    // Absolute, because `ort` resolves a relative path against the
    // executable's directory first.
    let lib = &lib.canonicalize().map_err(|e| {
        bad_input(format!(
            "{}: cannot open the ONNX Runtime library ({e}); {HOW_TO_GET_IT}",
            lib.display()
        ))
    })?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((path, env)) = loaded.as_ref() {
        if path != lib {
            return Err(bad_input(format!(
                "ONNX Runtime is already loaded from {}; cannot also load {}",
                path.display(),
                lib.display()
            )));
        }
        return Ok(env.clone());
    }
    let env = ort::init_from(lib)
        .map_err(|e| bad_input(format!("loading ONNX Runtime: {e}; {HOW_TO_GET_IT}")))?
        .with_name("nomos")
        .with_telemetry(false)
        .build()
        .map_err(|e| bad_input(format!("{}: ONNX Runtime: {e}", lib.display())))?;
    *loaded = Some((lib.to_path_buf(), env.clone()));
    Ok(env)
}
