//! Time, and giving the browser a turn: the app has no threads, so long
//! work is cut into slices with a turn for input and painting between.

use leptos::prelude::window;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Milliseconds from the page's time origin.
pub fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Milliseconds since the Unix epoch, by the user's clock.
pub fn unix_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

/// Today's date where the user is, as `YYYY-MM-DD`.
pub fn today() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date()
    )
}

/// Resolves after `millis` milliseconds (long enough for a paint).
pub async fn sleep(millis: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, millis);
    });
    let _ = JsFuture::from(promise).await;
}

/// Resolves in a later task, after the browser has handled input and
/// painted if a frame was due. A message to ourselves rather than a zero
/// timeout: browsers stretch chained timeouts to 4 ms, which would add a
/// third to a sweep's time.
pub async fn next_task() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        channel.port1().set_onmessage(Some(&resolve));
        if channel.port2().post_message(&JsValue::NULL).is_err() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
}
