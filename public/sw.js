// Nomos service worker: keeps the app and the demo pools a user opened,
// so that the app starts and searches with no network.
//
// - Install precaches this build's files (the page, its hashed JS, wasm and
//   CSS, and indexes/manifest.json); scripts/sw-precache.py, a Trunk
//   post-build hook, writes their list and a build version into BUILD.
//   A new build changes this file, so browsers install it as an update.
// - Activate deletes every other build's cache and takes over open pages.
// - Blobs are kept on first use (fetched through here, or named by the app
//   in a "keep" message for those it loaded before this worker ran).
// - The models (models/: the semantic model, the in-page LLM) and the
//   runtimes (ort/: ONNX Runtime, wllama/: llama.cpp) are kept on first
//   use too, in a cache of their own that outlives builds: they are large
//   and rarely change. Their URLs say their version (a model file's
//   `?sha256=`, a runtime's `<runtime>/<version>/`), so the cache keeps one
//   version of each file and drops the others when a new one arrives. The
//   in-page LLM's gguf-manifest.json, whose URL has no `?sha256=`, is asked
//   of the network first, so that a rebuilt site's model is seen, and
//   served from the cache offline.
//   A file whose URL names its SHA-256 is kept only if its bytes have it.
// - Everything is served cache first: the files are immutable per build.
// - Every answer is served cross-origin isolated (see `isolated`).
"use strict";

const BUILD = { version: "unbuilt", files: [] };
const PREFIX = "nomos-";
const CACHE = PREFIX + BUILD.version;
const scoped = (path) => new URL(path, self.registration.scope).href;
const PAGE = scoped("index.html");
const ASSETS = PREFIX + "assets";
const MANIFEST = scoped("indexes/manifest.json");

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Revalidate: unhashed names (the page, the manifest) may be cached
      // by HTTP from an older build.
      await cache.addAll(BUILD.files.map((f) => new Request(scoped(f), { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE && name !== ASSETS) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // The app is one page: any navigation to it gets the cached page (the
  // state is in the fragment, which requests do not carry).
  const path = url.origin + url.pathname;
  const isPage = request.mode === "navigate" && (path === self.registration.scope || path === PAGE);
  const answer = assetFamily(url)
    ? fromAssets(request, event)
    : isPage
      ? fromCache(PAGE, request)
      : fromCache(request, request, event);
  event.respondWith(answer.then(isolated));
});

// Every answer cross-origin isolated (COOP + COEP), so that ONNX Runtime
// can embed queries on several threads (SharedArrayBuffer), even from a
// host that cannot set these headers: the page needs them to be isolated,
// and so does each worker script it starts (ONNX Runtime's threads run
// ort-wasm-simd-threaded.mjs; under an isolated page, Chromium refuses a
// worker whose script comes without COEP, and the threads never start).
// Everything the app loads is same-origin, so nothing is blocked.
function isolated(response) {
  if (response.status !== 200) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// For a model or runtime file: the path that names it whatever its
// version (`models/e5-small/model.onnx`, `ort/ort.wasm.min.js`,
// `wllama/wllama.wasm`); for anything else, null.
function assetFamily(url) {
  const scope = new URL(self.registration.scope).pathname;
  if (url.origin !== self.location.origin || !url.pathname.startsWith(scope)) return null;
  const path = url.pathname.slice(scope.length);
  if (path.startsWith("models/")) return path;
  for (const runtime of ["ort/", "wllama/"]) {
    if (path.startsWith(runtime)) return runtime + path.split("/").slice(2).join("/");
  }
  return null;
}

async function fromAssets(request, event) {
  const cache = await caches.open(ASSETS);
  const url = new URL(request.url);
  if (url.pathname.endsWith("/gguf-manifest.json") && !url.search) return networkFirst(cache, request, event);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  // Whole answers only (no 206 ranges), kept in the background so the
  // app still sees the download's progress.
  if (response.status === 200) event.waitUntil(keepAsset(cache, request, response.clone()));
  return response;
}

// The network's answer (kept), else the cached one when offline.
async function networkFirst(cache, request, event) {
  try {
    const response = await fetch(request);
    if (response.status === 200) event.waitUntil(keepAsset(cache, request, response.clone()));
    return response;
  } catch (e) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw e;
  }
}

// Keeps `response` as the one version of its family. A file whose URL
// names its SHA-256 is kept only if its bytes have it, so that a damaged
// download is never served from the cache again.
async function keepAsset(cache, request, response) {
  const url = new URL(request.url);
  const expected = url.searchParams.get("sha256");
  if (expected) {
    const bytes = await response.arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const actual = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    if (actual !== expected) throw new Error(`${url.pathname}: SHA-256 ${actual}, not ${expected}`);
    response = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const family = assetFamily(url);
  for (const old of await cache.keys()) {
    if (old.url !== request.url && assetFamily(new URL(old.url)) === family) await cache.delete(old);
  }
  await cache.put(request, response);
}

// The cached answer for `key`, else the network's for `request`. A blob
// from the network is kept (in the background, so the app still sees the
// download's progress).
async function fromCache(key, request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  const response = await fetch(request);
  if (event && response.ok && (await isListedBlob(request.url))) {
    event.waitUntil(cache.put(request, response.clone()));
  }
  return response;
}

// `{ keep: ["da-acts.blob", ...] }` with a reply port: fetch and keep the
// listed blobs not kept yet, then answer `{ ok }` (or `{ ok: false, error }`).
// `{ keepAssets: [url, ...] }` does the same for model and runtime files
// the app fetched before this worker controlled it.
self.addEventListener("message", (event) => {
  const port = event.ports[0];
  const files = event.data && event.data.keep;
  const assets = event.data && event.data.keepAssets;
  if (!port || !(Array.isArray(files) || Array.isArray(assets))) return;
  event.waitUntil(
    (Array.isArray(files) ? keep(files) : keepAssets(assets)).then(
      () => port.postMessage({ ok: true }),
      (e) => port.postMessage({ ok: false, error: String(e && e.message ? e.message : e) }),
    ),
  );
});

async function keep(files) {
  const cache = await caches.open(CACHE);
  for (const file of files) {
    const url = scoped("indexes/" + encodeURIComponent(String(file)));
    if (!(await isListedBlob(url))) throw new Error(`${file} is not in the manifest`);
    if (!(await cache.match(url))) await cache.add(url);
  }
}

async function keepAssets(urls) {
  const cache = await caches.open(ASSETS);
  for (const raw of urls) {
    const url = new URL(String(raw), self.registration.scope);
    if (!assetFamily(url)) throw new Error(`${raw} is not a model or runtime file`);
    if (await cache.match(url.href)) continue;
    const response = await fetch(url.href);
    if (response.status !== 200) throw new Error(`${raw}: ${response.status}`);
    await keepAsset(cache, new Request(url.href), response);
  }
}

// Whether `url` is a blob indexes/manifest.json lists: only those are kept.
async function isListedBlob(url) {
  const response = await caches.match(MANIFEST);
  if (!response) return false;
  try {
    const manifest = await response.json();
    return manifest.indexes.some((entry) => scoped("indexes/" + encodeURIComponent(entry.file)) === url);
  } catch {
    return false;
  }
}
