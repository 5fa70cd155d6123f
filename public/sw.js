// Nomos service worker: keeps the app and the demo pools a user opened,
// so that the app starts and searches with no network.
//
// - Install precaches this build's files (the page, its hashed JS, wasm and
//   CSS, and indexes/manifest.json); scripts/sw-precache.py, a Trunk
//   post-build hook, writes their list and a build version into BUILD.
//   A new build changes this file, so browsers install it as an update.
// - Activate deletes every other build's cache and takes over open pages.
// - Blobs (and a light blob's sibling files: its text, its vectors) are
//   kept once the app has checked them: a blob fetched through
//   here waits in UNCHECKED (never served from there) until the app's
//   "keep" message, sent after the blob passed every check, moves it into
//   the build's cache (for blobs it loaded before this worker ran, the
//   worker answers that it has no checked copy, and the app sends the
//   bytes it checked). Nothing is kept that nobody checked: a host that
//   answers a missing file with its index.html (status 200) therefore
//   never poisons the cache.
// - The models (models/: the semantic model, the in-page LLM) and the
//   runtimes (ort/: ONNX Runtime, wllama/: llama.cpp) are kept the same
//   way ("keepAssets", after the app checked their hashes, which it names
//   where their URLs do not, so that a copy fetched again is checked too), in a cache of
//   their own that outlives builds: they are large and rarely change.
//   Their URLs say their version (a model file's `?sha256=`, a runtime's
//   `<runtime>/<version>/`), so the cache keeps one version of each file
//   and drops the others when a new one arrives. The in-page LLM's
//   gguf-manifest.json, whose URL has no `?sha256=`, is asked of the
//   network first, so that a rebuilt site's model is seen, and served
//   from the cache offline. A file whose URL names its SHA-256 is not even
//   held unless its bytes have it.
// - Fragmented pools (indexes/DIR/meta and DIR/HASH.frag): a fragment's
//   name is the hash of its bytes, so once the app has checked it
//   ("keepFragments") it is kept forever in a cache of its own that
//   outlives builds, and served from there first (no network needed: the
//   app's "Make available offline" fetches them all). The meta file is
//   asked of the network first, so a rebuilt pool is seen, and served
//   from the same cache offline. Once a pool is all available offline,
//   and when it opens a build of a pool other than the one it opened
//   before, the app names every file of it ("keepOnlyFragments") and the files an
//   earlier build of that pool left in its directory are dropped: at 10⁶
//   chunks each build is half a gigabyte. A meta the app fetched before this
//   worker controlled the page (a first visit) comes with its bytes, so
//   it is not fetched twice.
// - "forget" drops URLs from every cache: the app sends it when a file it
//   got fails a check, so that Retry or a reload fetches it anew (an older
//   worker may have kept a bad copy).
// - Messages are heard only from the app's own pages (the scope's page),
//   and only about URLs under the scope: on a shared origin another
//   site's pages reach this worker too.
// - Only whole answers (status 200, never 206) are held or kept, and the
//   network is asked to revalidate (`no-cache`), so that a fixed file
//   replaces a bad one the HTTP cache holds.
// - Everything is served cache first: the files are immutable per build.
// - Every answer is served cross-origin isolated and under the page's
//   Content-Security-Policy (see `isolated`).
"use strict";

const BUILD = { version: "unbuilt", files: [], csp: "" };
const PREFIX = "nomos-";
const CACHE = PREFIX + BUILD.version;
// Answers waiting for the app's check; dropped with each build.
const UNCHECKED = PREFIX + "unchecked";
const scoped = (path) => new URL(path, self.registration.scope).href;
const PAGE = scoped("index.html");
const ASSETS = PREFIX + "assets";
const FRAGMENTS = PREFIX + "fragments";
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
        const kept = [CACHE, ASSETS, FRAGMENTS];
        if (name.startsWith(PREFIX) && !kept.includes(name)) await caches.delete(name);
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
  const fragment = fragmentFile(url);
  const answer = assetFamily(url)
    ? fromAssets(request, event)
    : fragment
      ? fromFragments(fragment, request, event)
      : isPage
      ? fromCache(PAGE, request)
      : fromCache(blobKey(url) || request, request, event);
  event.respondWith(answer.then(isolated));
});

// Every answer cross-origin isolated (COOP + COEP), so that ONNX Runtime
// can embed queries on several threads (SharedArrayBuffer), even from a
// host that cannot set these headers: the page needs them to be isolated,
// and so does each worker script it starts (ONNX Runtime's threads run
// ort-wasm-simd-threaded.mjs; under an isolated page, Chromium refuses a
// worker whose script comes without COEP, and the threads never start).
// Everything the app loads is same-origin, so nothing is blocked.
// The Content-Security-Policy is the page's own (its meta tag, which
// scripts/csp-hashes.py completes and sw-precache.py copies into BUILD)
// plus what only a header can say (frame-ancestors); `nosniff` makes the
// browser refuse a script or style served under another type.
function isolated(response) {
  if (response.status !== 200) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Content-Security-Policy", BUILD.csp);
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// The one URL a blob is kept under, whatever its name's escaping
// (`a&b.blob`, `a%26b.blob`; `+` and spaces alike): `indexes/` and the
// name as encodeURIComponent writes it. Null outside indexes/.
function blobKey(url) {
  const dir = new URL("indexes/", self.registration.scope).pathname;
  if (url.origin !== self.location.origin || !url.pathname.startsWith(dir)) return null;
  const name = url.pathname.slice(dir.length);
  if (name.includes("/")) return null;
  try {
    return scoped("indexes/" + encodeURIComponent(decodeURIComponent(name)));
  } catch {
    return null;
  }
}

// For a fragmented pool's file (`indexes/DIR/meta`, `indexes/DIR/HASH.frag`,
// one directory deep): "meta" or "frag"; else null.
function fragmentFile(url) {
  const dir = new URL("indexes/", self.registration.scope).pathname;
  if (url.origin !== self.location.origin || !url.pathname.startsWith(dir) || url.search) return null;
  const parts = url.pathname.slice(dir.length).split("/");
  if (parts.length !== 2 || !parts[0]) return null;
  if (parts[1] === "meta") return "meta";
  return /^[0-9a-f]{16}\.frag$/.test(parts[1]) ? "frag" : null;
}

// A fragment from the cache, else the network's (held for the app's check);
// the meta from the network first, else the cache.
async function fromFragments(kind, request, event) {
  const cache = await caches.open(FRAGMENTS);
  if (kind === "meta") return networkFirst(cache, request, event);
  const hit = await cache.match(request.url);
  if (hit) return hit;
  const response = await revalidated(request);
  if (response.status === 200) event.waitUntil(hold(request.url, response.clone()));
  return response;
}

// The network's answer to `request`, revalidated with the server (a bad
// copy in the HTTP cache is not reused once the server is fixed).
function revalidated(request) {
  return fetch(new Request(request, { cache: "no-cache" }));
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
  const response = await revalidated(request);
  // Held in the background, so the app still sees the download's progress.
  if (response.status === 200) event.waitUntil(hold(request.url, response.clone()));
  return response;
}

// The network's answer (held for the app's check), else the kept one
// when offline.
async function networkFirst(cache, request, event) {
  try {
    const response = await revalidated(request);
    if (response.status === 200) event.waitUntil(hold(request.url, response.clone()));
    return response;
  } catch (e) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw e;
  }
}

// The holds in progress, by key: "keep" and "forget" wait for a file's
// hold to end, so that neither acts on an older answer held for it.
const holding = new Map();

// Holds a whole answer under `key` until the app has checked it (see
// `keepChecked`). A file whose URL names its SHA-256 is not held unless
// its bytes have it.
function hold(key, response) {
  const done = (async () => {
    await (await caches.open(UNCHECKED)).put(key, await pinChecked(key, response));
  })();
  const ended = done.then(
    () => {},
    () => {},
  );
  holding.set(key, ended);
  ended.then(() => holding.get(key) === ended && holding.delete(key));
  return done;
}

// `response` as read, if neither its URL (`?sha256=`) nor `pin` names a
// hash, or its bytes have the ones named; else an error. A pin is
// `sha256-HEX` or `sha384-BASE64` (Subresource Integrity's form).
async function pinChecked(key, response, pin) {
  const expected = [];
  const inUrl = new URL(key).searchParams.get("sha256");
  if (inUrl) expected.push(["SHA-256", inUrl, hex]);
  if (pin) {
    const [algorithm, value] = [pin.slice(0, pin.indexOf("-")), pin.slice(pin.indexOf("-") + 1)];
    if (algorithm === "sha256") expected.push(["SHA-256", value, hex]);
    else if (algorithm === "sha384") expected.push(["SHA-384", value, base64]);
    else throw new Error(`${key}: unknown pin ${pin}`);
  }
  if (!expected.length) return response;
  const bytes = await response.arrayBuffer();
  for (const [algorithm, value, write] of expected) {
    const actual = write(new Uint8Array(await crypto.subtle.digest(algorithm, bytes)));
    if (actual !== value) throw new Error(`${new URL(key).pathname}: ${algorithm} ${actual}, not ${value}`);
  }
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const hex = (digest) => Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
const base64 = (digest) => btoa(String.fromCharCode(...digest));

// A file to keep that this worker holds no checked copy of, and that the
// app neither sent nor named a hash for: the app answers with its bytes.
class Unchecked extends Error {}

// Keeps `key`, which the app has checked, in `cache`: the answer held for
// it (the very bytes the app got through this worker), else `body` (the
// bytes the app checked, sent when it got them past this worker), else
// the network's if their hash is named (`?sha256=` in the URL, or `pin`)
// and they have it. Never an answer nobody checked: a host that answers
// a missing file with its index.html would have it kept and served
// later. A kept model or runtime file is the one version of its family.
async function keepChecked(cache, key, body, pin) {
  await holding.get(key);
  const unchecked = await caches.open(UNCHECKED);
  let response = await unchecked.match(key);
  if (response && pin) response = await pinChecked(key, response, pin);
  if (!response && body) {
    response = new Response(body, { status: 200, headers: { "Content-Type": "application/octet-stream" } });
  } else if (!response) {
    if (await cache.match(key)) return;
    if (!pin && !new URL(key).searchParams.get("sha256")) throw new Unchecked(key);
    response = await revalidated(new Request(key));
    if (response.status !== 200) throw new Error(`${key}: ${response.status}`);
    response = await pinChecked(key, response, pin);
  }
  const family = assetFamily(new URL(key));
  if (family) {
    for (const old of await cache.keys()) {
      if (old.url !== key && assetFamily(new URL(old.url)) === family) await cache.delete(old);
    }
  }
  await cache.put(key, response);
  await unchecked.delete(key);
}

// Runs `keepOne(item, i)` for every item; those it has no checked copy
// of are named in the error's `missing`, for the app to send their bytes.
async function keepEach(items, keepOne) {
  const missing = [];
  for (const [i, item] of items.entries()) {
    try {
      await keepOne(item, i);
    } catch (e) {
      if (!(e instanceof Unchecked)) throw e;
      missing.push(item);
    }
  }
  if (missing.length) {
    const error = new Error(`no checked copy of ${missing.join(", ")}: the app must send the bytes`);
    error.missing = missing;
    throw error;
  }
}

// The cached answer for `key`, else the network's for `request`. A listed
// blob from the network is held for the app's check (in the background,
// so the app still sees the download's progress).
async function fromCache(key, request, event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  if (!event || !(await isListedBlob(key))) return fetch(request);
  const response = await revalidated(request);
  if (response.status === 200) event.waitUntil(hold(key, response.clone()));
  return response;
}

// Messages from the app, each with a reply port, answered `{ ok }` (or
// `{ ok: false, error }`) once done:
// - `{ keep: ["da-acts.blob", "da-acts.text", ...] }`: the listed blobs
//   and sibling files the app checked;
// - `{ keepAssets: [url, ...] }`: the model and runtime files it checked;
// - `{ keepFragments: [url, ...], bodies: [bytes, ...] }`: a fragmented
//   pool's meta and fragments it checked, with the bytes (an ArrayBuffer,
//   else null) of those it fetched before this worker controlled the page
//   (nothing was held for them: without their bytes they are fetched
//   again);
// - `{ keepOnlyFragments: [url, ...] }`: every file of one fragmented
//   pool (its meta and all its fragments, all kept): the fragments cache
//   drops the other files of that pool's directory;
// - `{ forget: [url, ...] }`: files that failed its check, dropped from
//   every cache.
// A failure for lack of room (QuotaExceededError) is answered with
// `full: true`; what was kept before it stays.
// Only the app's own pages are heard, and every URL must be under this
// worker's scope: on a shared origin (a GitHub Pages project site)
// another site's page can reach this worker too, and must not make it
// keep bytes of its choosing or drop what the app kept.
self.addEventListener("message", (event) => {
  const port = event.ports[0];
  const data = event.data || {};
  const kinds = ["keep", "keepAssets", "keepFragments", "keepOnlyFragments", "forget"];
  const [kind] = kinds.filter((k) => Array.isArray(data[k]));
  if (!port || !kind) return;
  if (!fromApp(event.source)) {
    port.postMessage({ ok: false, error: "only the app's own pages may ask this worker" });
    return;
  }
  const work = { keep, keepAssets, keepFragments, keepOnlyFragments, forget }[kind](
    data[kind].map(String),
    data.bodies,
  );
  event.waitUntil(
    work.then(
      () => port.postMessage({ ok: true }),
      (e) =>
        port.postMessage({
          ok: false,
          error: String(e && e.message ? e.message : e),
          missing: (e && e.missing) || [],
          // The origin's storage is full: the app stops and says so.
          full: !!e && e.name === "QuotaExceededError",
        }),
    ),
  );
});

// Whether `source` (a message's sender) is a page of this app: a window
// at this worker's scope or its index.html, whatever its query and
// fragment; not another page of the origin, nor a worker.
function fromApp(source) {
  if (!source || source.type !== "window") return false;
  const url = new URL(source.url);
  const path = url.origin + url.pathname;
  return path === self.registration.scope || path === PAGE;
}

// `raw` resolved against the scope, if it stays under it: the app's own
// paths, not another site's on a shared origin.
function ownUrl(raw) {
  const url = new URL(raw, self.registration.scope);
  if (!url.href.startsWith(self.registration.scope)) throw new Error(`${raw} is not this app's`);
  return url;
}

async function keep(files, bodies) {
  const cache = await caches.open(CACHE);
  await keepEach(files, async (file, i) => {
    const url = scoped("indexes/" + encodeURIComponent(file));
    if (!(await isListedBlob(url))) throw new Error(`${file} is not in the manifest`);
    await keepChecked(cache, url, bodyAt(bodies, i));
  });
}

// Each item is a URL, with the hash the app checked as its fragment
// (`ort/1.30.0/ort-wasm-simd-threaded.wasm#sha384-…`) where the URL names
// none.
async function keepAssets(items, bodies) {
  const cache = await caches.open(ASSETS);
  await keepEach(items, async (item, i) => {
    const url = ownUrl(item);
    const pin = url.hash.slice(1);
    url.hash = "";
    if (!assetFamily(url)) throw new Error(`${item} is not a model or runtime file`);
    await keepChecked(cache, url.href, bodyAt(bodies, i), pin);
  });
}

async function keepFragments(urls, bodies) {
  const cache = await caches.open(FRAGMENTS);
  await keepEach(urls, async (raw, i) => {
    const url = ownUrl(raw);
    if (!fragmentFile(url)) throw new Error(`${raw} is not a fragmented pool's file`);
    await keepChecked(cache, url.href, bodyAt(bodies, i));
  });
}

// The bytes the app sent for item `i`, if any.
function bodyAt(bodies, i) {
  return Array.isArray(bodies) && bodies[i] instanceof ArrayBuffer ? bodies[i] : null;
}

async function keepOnlyFragments(urls) {
  const wanted = new Set();
  let dir = null;
  for (const raw of urls) {
    const url = ownUrl(raw);
    if (!fragmentFile(url)) throw new Error(`${raw} is not a fragmented pool's file`);
    const here = url.href.slice(0, url.href.lastIndexOf("/") + 1);
    if (dir !== null && here !== dir) throw new Error(`${raw} is not in ${dir}`);
    dir = here;
    wanted.add(url.href);
  }
  if (dir === null) return;
  // Any other file of the directory goes, whatever its name: those of an
  // older fragment format (named by 32 hex digits) too.
  const cache = await caches.open(FRAGMENTS);
  for (const request of await cache.keys()) {
    const inDir = request.url.startsWith(dir) && !request.url.slice(dir.length).includes("/");
    if (inDir && !wanted.has(request.url)) await cache.delete(request);
  }
}

async function forget(urls) {
  for (const raw of urls) {
    const url = ownUrl(raw);
    const key = blobKey(url) || url.href;
    await holding.get(key);
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX)) await (await caches.open(name)).delete(key);
    }
  }
}

// Whether `key` (see `blobKey`) is a blob indexes/manifest.json lists, or
// one of a listed blob's sibling files (its text, its vectors): only those
// are kept.
async function isListedBlob(key) {
  const response = await caches.match(MANIFEST);
  if (!response) return false;
  try {
    const manifest = await response.json();
    const listed = (file) => scoped("indexes/" + encodeURIComponent(file)) === key;
    return manifest.indexes.some((entry) => listed(entry.file) || (entry.siblings || []).some((s) => listed(s.file)));
  } catch {
    return false;
  }
}
