// The page's service worker: keeps this build's app shell (index.html, the page's .js and
// .wasm — which the solver's workers run too —, the solver worker's script, the stylesheet,
// the icon) in a cache, so that the page, once
// loaded, opens and plans without a network.
//
// web/sw-stamp.mjs (a Trunk post_build hook, Trunk.toml) replaces the two placeholders below
// with a digest of the build's files and their list. Every build therefore has a different
// sw.js, which the browser installs as a new worker with a cache of its own; the old
// caches of this scope are deleted when it takes over.
//
// Policy: Trunk's content-hashed files (name-<16 hex digits>…) never change, so the cache
// answers them first, and the install takes them from the HTTP cache (the page has just
// loaded them: a first visit transfers the shell once). Everything else — index.html and the solver worker's unhashed script — goes
// to the network first (a new publish shows at once) and falls back to the cache offline.
// Registered from index.html with a relative URL, so its scope is the page's directory,
// whatever sub-path the site is published under.

const BUILD = '__SMD_BUILD__';
const SHELL = ['__SMD_SHELL__'];

const PREFIX = `smd-planner ${self.registration.scope} `;
const CACHE = PREFIX + BUILD;
const HASHED = /-[0-9a-f]{16}(_bg)?\.[a-z0-9]+$/;
// The shell's absolute URLs; './' is the page itself.
const SHELL_URLS = new Set(SHELL.map((path) => new URL(path, self.location).href));
const PAGE = new URL('./', self.location).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // The page has just loaded these files: take them from the HTTP cache rather than
    // download the shell a second time. A content-hashed file is this build's whatever
    // copy answers ('force-cache': no request at all when the HTTP cache has it); the
    // others are revalidated ('no-cache': a conditional request, answered "not modified"
    // when the HTTP cache holds this build's), so the cache never holds an older build's.
    await cache.addAll(SHELL.map((path) => new Request(path, {
      cache: HASHED.test(new URL(path, self.location).pathname) ? 'force-cache' : 'no-cache',
    })));
    // Safe to take over at once: whatever is not content-hashed comes from the network first.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // Only this scope's older builds: other sites on the same origin keep their caches.
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';
  // The page under any query (its state is in the hash, which never reaches here).
  const page = request.mode === 'navigate' && (url.href === PAGE || url.href === `${PAGE}index.html`);
  if (page) {
    event.respondWith(networkFirst(request, PAGE));
  } else if (SHELL_URLS.has(url.href)) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request, url.href));
  }
  // Anything else is not the app's: the browser fetches it as if there were no worker.
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    // The worker's script has no hash in its name: revalidate it, so that right after a
    // publish the HTTP cache cannot pair a new page with an old worker.
    const response = await fetch(request.mode === 'navigate' ? request : new Request(request, { cache: 'no-cache' }));
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (offline) {
    const hit = await cache.match(key, { ignoreSearch: true });
    if (hit) return hit;
    throw offline;
  }
}
