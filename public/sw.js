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
// - Everything is served cache first: the files are immutable per build.
"use strict";

const BUILD = { version: "unbuilt", files: [] };
const PREFIX = "nomos-";
const CACHE = PREFIX + BUILD.version;
const scoped = (path) => new URL(path, self.registration.scope).href;
const PAGE = scoped("index.html");
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
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
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
  event.respondWith(isPage ? fromCache(PAGE, request) : fromCache(request, request, event));
});

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
self.addEventListener("message", (event) => {
  const port = event.ports[0];
  const files = event.data && event.data.keep;
  if (!port || !Array.isArray(files)) return;
  event.waitUntil(
    keep(files).then(
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
