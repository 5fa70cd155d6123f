//! wllama in the page: its module and wasm, fetched once per page and
//! checked byte for byte before they run (the module is imported from a
//! `blob:` URL over the checked bytes, and the worker loads the checked
//! wasm from another), then one `Wllama` per loaded model. Nothing is
//! taken from wllama's CDN defaults: its compatibility mode (another
//! build, for browsers without JSPI or Memory64) is switched off, so such
//! a browser gets [`WllamaError::Unsupported`] instead.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::runtime_files::{RuntimeFile, DIR, SCRIPT, WASM};
use super::WllamaError;
use crate::web::{fetch_blob, forget_cached, js_message, pinned, Limit};

#[wasm_bindgen(inline_js = r#"
export function import_module(url) { return import(url); }
export function has_memory64() {
  try { new WebAssembly.Memory({ address: "i64", initial: 1n }); return true; } catch { return false; }
}
"#)]
extern "C" {
    /// `import(url)`: the module's namespace.
    fn import_module(url: &str) -> Promise;
    /// Whether 64-bit wasm memories can be made (as wllama tests it).
    fn has_memory64() -> bool;
}

#[wasm_bindgen]
extern "C" {
    /// wllama's `Wllama` class (esm/wllama.d.ts).
    pub type Wllama;
    #[wasm_bindgen(method, js_name = setCompat)]
    fn set_compat(this: &Wllama, compat: &JsValue);
    #[wasm_bindgen(method, js_name = loadModel)]
    fn load_model(this: &Wllama, blobs: &Array, params: &JsValue) -> Promise;
    #[wasm_bindgen(method, js_name = createChatCompletion)]
    fn create_chat_completion(this: &Wllama, options: &JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn exit(this: &Wllama) -> Promise;
}

/// The loaded module: the class and its logger without debug lines, and
/// the checked wasm's `blob:` URL (kept for the page's lifetime).
#[derive(Clone)]
struct Runtime {
    class: Function,
    logger: JsValue,
    wasm_url: String,
}

type Load = Shared<LocalBoxFuture<'static, Result<Runtime, WllamaError>>>;

thread_local! {
    /// The runtime's one load per page; a failed load is forgotten so
    /// that it can be tried again.
    static RUNTIME: RefCell<Option<Load>> = const { RefCell::new(None) };
}

/// Whether the runtime still has to be downloaded (its bytes count in a
/// load's progress).
pub fn pending() -> bool {
    RUNTIME.with_borrow(|r| {
        !r.as_ref()
            .is_some_and(|l| l.peek().is_some_and(Result::is_ok))
    })
}

/// The URLs the runtime is loaded from, for the service worker to keep,
/// each with the SHA-256 the app checked (see `web::pinned`).
pub fn urls() -> Vec<String> {
    [&SCRIPT, &WASM]
        .map(|f| pinned(&format!("{DIR}{}", f.name), "sha256", f.sha256))
        .into()
}

/// Starts a `Wllama` with the model in `blob`: downloads and checks the
/// runtime first if this page has not (reporting its bytes), checks the
/// browser can run it, and loads the model with `n_ctx` tokens of
/// context on the CPU.
pub async fn start(
    blob: &web_sys::Blob,
    n_ctx: u32,
    progress: Rc<dyn Fn(u64)>,
) -> Result<Wllama, WllamaError> {
    check_browser()?;
    let runtime = runtime(progress).await?;
    let paths = Object::new();
    set(&paths, "default", &runtime.wasm_url.as_str().into());
    let config = Object::new();
    set(&config, "logger", &runtime.logger);
    let wllama: Wllama = Reflect::construct(&runtime.class, &Array::of2(&paths, &config))
        .map_err(|e| WllamaError::Load(js_message(&e)))?
        .unchecked_into();
    // No compatibility build: it would come from a CDN.
    wllama.set_compat(&JsValue::NULL);
    let params = Object::new();
    set(&params, "n_ctx", &n_ctx.into());
    // CPU only: the same on every machine, and enough for small models.
    set(&params, "n_gpu_layers", &0.into());
    // One request at a time (the methods send them in turn).
    set(&params, "n_parallel", &1.into());
    // Warnings and errors only (wllama's LogLevel.WARN).
    set(&params, "log_level", &3.into());
    JsFuture::from(wllama.load_model(&Array::of1(blob), &params))
        .await
        .map_err(|e| WllamaError::Load(js_message(&e)))?;
    Ok(wllama)
}

/// One chat completion: wllama's answer as JSON text.
pub async fn complete(wllama: &Wllama, options: &str) -> Result<String, (String, String)> {
    let fail = |e: JsValue| {
        let kind = Reflect::get(&e, &"type".into())
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        (kind, js_message(&e))
    };
    let options = js_sys::JSON::parse(options).map_err(fail)?;
    let answer = JsFuture::from(wllama.create_chat_completion(&options))
        .await
        .map_err(fail)?;
    js_sys::JSON::stringify(&answer)
        .map(String::from)
        .map_err(fail)
}

/// Ends the model's worker.
pub fn stop(wllama: &Wllama) {
    // Nothing to do if it fails: the page is going or the worker is gone.
    let _ = wllama.exit();
}

/// The runtime, loading it if this page has not; `progress` gets the
/// runtime bytes received if this call starts the download (a load
/// already under way is joined without progress).
async fn runtime(progress: Rc<dyn Fn(u64)>) -> Result<Runtime, WllamaError> {
    let load = RUNTIME.with_borrow_mut(|slot| {
        slot.get_or_insert_with(|| download(progress).boxed_local().shared())
            .clone()
    });
    let outcome = load.await;
    if outcome.is_err() {
        RUNTIME.with_borrow_mut(|slot| *slot = None);
    }
    outcome
}

/// Downloads and checks the module and the wasm, then imports the module.
async fn download(progress: Rc<dyn Fn(u64)>) -> Result<Runtime, WllamaError> {
    let script = checked(&SCRIPT, &|r| progress(r)).await?;
    let wasm_url = checked(&WASM, &|r| progress(SCRIPT.bytes + r)).await?;
    let module = JsFuture::from(import_module(&script)).await.map_err(|e| {
        WllamaError::Load(format!("wllama's module did not load: {}", js_message(&e)))
    })?;
    let _ = web_sys::Url::revoke_object_url(&script);
    let class = Reflect::get(&module, &"Wllama".into())
        .ok()
        .and_then(|c| c.dyn_into::<Function>().ok())
        .ok_or_else(|| WllamaError::Load("wllama's module has no Wllama class".into()))?;
    let logger = Reflect::get(&module, &"LoggerWithoutDebug".into()).unwrap_or(JsValue::UNDEFINED);
    Ok(Runtime {
        class,
        logger,
        wasm_url,
    })
}

/// A `blob:` URL over `file`'s bytes from the site, once they are checked.
async fn checked(file: &RuntimeFile, progress: &dyn Fn(u64)) -> Result<String, WllamaError> {
    let url = format!("{DIR}{}", file.name);
    let fetched = fetch_blob(&url, file.mime, Limit::Listed(file.bytes), |r, _| {
        progress(r)
    })
    .await?;
    if fetched.bytes != file.bytes || fetched.sha256 != file.sha256 {
        // A copy the service worker may hold for it goes: a reload after
        // the host is fixed fetches it anew.
        forget_cached(vec![url.clone()]);
        return Err(WllamaError::WrongRuntime { url });
    }
    web_sys::Url::create_object_url_with_blob(&fetched.blob)
        .map_err(|e| WllamaError::Load(js_message(&e)))
}

/// llama.cpp's wasm build needs JSPI and 64-bit memories; without them
/// wllama would switch to its compatibility build from a CDN.
fn check_browser() -> Result<(), WllamaError> {
    let global = js_sys::global();
    let wasm = Reflect::get(&global, &"WebAssembly".into()).unwrap_or(JsValue::UNDEFINED);
    let jspi = Reflect::get(&wasm, &"Suspending".into()).is_ok_and(|s| s.is_function());
    if !jspi {
        return Err(WllamaError::Unsupported {
            missing: "JSPI (JavaScript Promise Integration)".into(),
        });
    }
    if !has_memory64() {
        return Err(WllamaError::Unsupported {
            missing: "Memory64".into(),
        });
    }
    Ok(())
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a property on a plain object cannot fail.
    let _ = Reflect::set(target, &key.into(), value);
}
