// Offline support (registered by src/lib/service-worker.ts). Hand-written and small:
// - at install it caches the app shell and the prerendered pages with their code
//   (scripts/build-site.mjs fills in the list and the version);
// - pages: the network first, the cached copy when offline, else the app shell;
// - hashed /assets/: the cache first (their names change with their content);
// - other files: the cache, refreshed from the network in the background.
// API calls are never cached; the tracking page keeps its last result itself.
const VERSION = 'dev';
const PRECACHE_URLS = [];
const CACHE = `pse-${VERSION}`;
const SHELL = '/app.html';

/** A copy that is not marked as redirected (a redirected response cannot answer a navigation). */
async function storable(response) {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, headers: response.headers });
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(
    PRECACHE_URLS.map(async (url) => {
      const response = await fetch(url, { cache: 'no-cache' });
      if (!response.ok) throw new Error(`precache ${url}: ${response.status}`);
      await cache.put(url, await storable(response));
    }),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** "/about/" and "/about" are one page. */
function pageKey(url) {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return new URL(path, url.origin).href;
}

async function page(request) {
  const cache = await caches.open(CACHE);
  const key = pageKey(new URL(request.url));
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, await storable(response.clone()));
    return response;
  } catch (error) {
    const cached = (await cache.match(key)) ?? (await cache.match(SHELL));
    if (cached) return cached;
    throw error;
  }
}

async function asset(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function staleWhileRevalidate(request, event) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  const refresh = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(request, response.clone());
    return response;
  });
  if (cached) {
    event.waitUntil(refresh.catch(() => undefined));
    return cached;
  }
  return refresh;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(asset(request));
  } else if (url.pathname !== '/sw.js') {
    event.respondWith(staleWhileRevalidate(request, event));
  }
});
