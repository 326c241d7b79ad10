// The service worker: serves the client's shell offline, shows each Web Push the API sends (title, body,
// the game's page) and opens that page when the notification is tapped. Registered by app.js (and push.js)
// with the client's root as its scope.

// The shell: every file of the client (tests/web/install_state.test.mjs checks none is missing). Fetched
// from the network first, so a new version shows at once; the cached copy answers only when offline.
const SHELL_CACHE = "dixit-shell-v1";
const SHELL = [
  "./",
  "index.html",
  "manifest.json",
  "icons/icon-192.png",
  "icons/icon-512.png",
  "icons/apple-touch-icon.png",
  "account.css",
  "account_state.js",
  "api.js",
  "app.js",
  "base.css",
  "cards.js",
  "config.js",
  "create_state.js",
  "dom.js",
  "forms.css",
  "game.js",
  "inbox_state.js",
  "install_state.js",
  "join_state.js",
  "live.js",
  "notify_state.js",
  "poller.js",
  "push.js",
  "rematch_state.js",
  "render.js",
  "screens.css",
  "screens/account.js",
  "screens/account_apps.js",
  "screens/account_email.js",
  "screens/account_sessions.js",
  "screens/account_tokens.js",
  "screens/authorize.js",
  "screens/clue.js",
  "screens/create.js",
  "screens/finished.js",
  "screens/hand.js",
  "screens/history.js",
  "screens/inbox.js",
  "screens/join.js",
  "screens/links.js",
  "screens/lobby.js",
  "screens/notifications.js",
  "screens/register.js",
  "screens/reveal.js",
  "screens/revocable.js",
  "screens/scores.js",
  "screens/signin.js",
  "screens/status.js",
  "screens/submit.js",
  "screens/table.js",
  "screens/vote.js",
  "state.js",
  "steps.js",
  "table_state.js",
  "talk.css",
  "talk.js",
  "talk_state.js",
  "ui.js",
  "words.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .catch(() => {}) // a shell not cached now is cached as its files are fetched
      .then(() => self.skipWaiting()),
  );
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

const scopeUrl = () => new URL(self.registration.scope);

// Only the shell's own files and page loads: the API (even on the same origin) is never cached here.
function isShell(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== scopeUrl().origin) return false;
  if (request.mode === "navigate") return true;
  const path = url.pathname.slice(scopeUrl().pathname.length);
  return SHELL.includes(path);
}

async function networkFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && request.mode !== "navigate") cache.put(request, response.clone());
    return response;
  } catch (error) {
    // Offline: the cached file, and for any page load the cached index.html (the client routes by #).
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    if (request.mode === "navigate") {
      const shell = (await cache.match("index.html")) || (await cache.match("./"));
      if (shell) return shell;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  if (isShell(event.request)) event.respondWith(networkFirst(event.request));
});

function pushed(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

self.addEventListener("push", (event) => {
  const data = pushed(event);
  event.waitUntil(
    self.registration.showNotification(data.title || "Dixit by mail", {
      body: data.body || "",
      // One notification per message: a push that arrives twice (a retried send) replaces itself.
      tag: data.tag || undefined,
      data: { url: data.url || "" },
    }),
  );
});

// "/play/<game_id>" is relative to where the client is served (the worker's scope), not the host's root.
function pageFor(url) {
  return new URL(String(url || "").replace(/^\/+/, ""), self.registration.scope).href;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = pageFor(event.notification.data?.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
