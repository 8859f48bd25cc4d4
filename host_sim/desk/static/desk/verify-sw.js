// The receipt pages' service worker (served as /V/sw.js, scope /V/): every request of a
// receipt page goes to the network first and, when the network (the desk, the mall's
// Wi-Fi) is gone, is answered from the copy verify.js put in the cache, so the page, the
// WebAssembly port and the bowl's modules check the turn again offline.
const CACHE = "bobing-verify-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") {
    return;
  }
  e.respondWith(
    fetch(e.request).then((r) => {
      if (r.ok) {
        const copy = r.clone();
        caches.open(CACHE).then((c) => c.put(e.request, copy));
      }
      return r;
    }).catch(() => caches.match(e.request, { ignoreVary: true }).then((r) => r || Response.error())),
  );
});
