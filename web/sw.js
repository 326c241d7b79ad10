// The service worker: shows each Web Push the API sends (title, body, the game's page) and opens that
// page when the notification is tapped. Registered by push.js with the client's root as its scope.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
