// Web Push in this browser: the service worker (sw.js), subscribing with the API's VAPID key, storing the
// subscription (PUT /players/me/web-push/{id}), turning it off, and offering it once a move is made.
//
// Where the browser has no push service (headless Chromium, some privacy modes) the local stack's push
// receiver stands in: it makes the subscription (keys and an endpoint of its own) and decrypts what the
// API pushes there, so the encryption is still real end to end. Anywhere else that fallback is absent and
// the player is told this browser cannot get notifications.

import { newKey } from "./api.js";
import { h } from "./dom.js";
import { ui } from "./ui.js";

const ID_KEY = "dixit:web-push-id"; // this browser's subscription id (one per browser, whoever plays)
const OFFER_KEY = "dixit:web-push-offer"; // "dismissed" once the player said "not now"
const SUBSCRIBE_TIMEOUT_MS = 8000;
const MOVE_PATH = /\/games\/[^/]+\/(clue|submissions|votes)$/;

export const pushSupported = () => "serviceWorker" in navigator && "Notification" in window;

function subscriptionId() {
  let id = localStorage.getItem(ID_KEY);
  if (!id) {
    id = `web-${newKey()}`;
    localStorage.setItem(ID_KEY, id);
  }
  return id;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function worker() {
  // Served next to index.html; its scope is the client's root, so /play/… pages are its clients too.
  await navigator.serviceWorker.register(new URL("sw.js", document.baseURI), { scope: "./" });
  return navigator.serviceWorker.ready;
}

function withTimeout(promise, ms) {
  return Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error("timed out")), ms))]);
}

// The local stack's receiver, in a browser without a push service: the same JSON a browser's gives.
async function localSubscription(publicKey) {
  const response = await fetch(`${ui.api.base}/_local/push/subscriptions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ applicationServerKey: publicKey }),
  });
  if (response.status !== 201) throw new Error("no push service");
  const made = await response.json();
  return { endpoint: made.endpoint, expirationTime: made.expirationTime, keys: made.keys };
}

async function browserSubscription(publicKey) {
  const registration = await worker();
  // Always a fresh endpoint: one this browser had may still be stored for a player who used it before
  // (signed out elsewhere), and only a new one leaves theirs to answer 410 and be removed.
  await (await registration.pushManager.getSubscription())?.unsubscribe();
  const made = await withTimeout(
    registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
    SUBSCRIBE_TIMEOUT_MS,
  );
  return made.toJSON();
}

// Asks for permission, subscribes and stores the subscription; throws an Error in words when it cannot.
export async function turnOn() {
  if (!pushSupported()) throw new Error("This browser cannot show notifications.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error("Notifications are blocked for this site. Allow them in the browser's site settings.");
  }
  const { public_key: publicKey } = await ui.api.call("GET", "/web-push/key", undefined, { auth: false });
  let subscription;
  try {
    subscription = await browserSubscription(publicKey);
  } catch {
    try {
      subscription = await localSubscription(publicKey);
    } catch {
      throw new Error("This browser has no push service to deliver notifications.");
    }
  }
  await ui.api.call("PUT", `/players/me/web-push/${encodeURIComponent(subscriptionId())}`, subscription);
  localStorage.removeItem(OFFER_KEY);
}

export async function turnOff() {
  const id = localStorage.getItem(ID_KEY);
  if (id) {
    try {
      await ui.api.call("DELETE", `/players/me/web-push/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error.status !== 404) throw error;
    }
  }
  if (pushSupported()) {
    const registration = await navigator.serviceWorker.getRegistration();
    await (await registration?.pushManager?.getSubscription())?.unsubscribe();
  }
}

// Whether the API holds this browser's subscription for the signed-in player.
export async function isOn() {
  const id = localStorage.getItem(ID_KEY);
  if (!id || !ui.api.token) return false;
  const { subscriptions } = await ui.api.call("GET", "/players/me/web-push");
  return subscriptions.some((s) => s.subscription_id === id);
}

// The offer: after the player's first move in a session (not on arrival), once, while they can say yes.
function offer() {
  if (document.getElementById("push-offer")) return;
  const yes = h("button", { type: "button", id: "push-offer-yes" }, "Notify me");
  const no = h("button", { type: "button", class: "secondary", id: "push-offer-no" }, "Not now");
  const box = h(
    "div",
    { id: "push-offer", class: "card-box push-offer", role: "dialog", "aria-labelledby": "push-offer-text" },
    h("p", { id: "push-offer-text" }, "Move made. Want a notification when it is your turn again?"),
    h("div", { class: "row" }, yes, no),
  );
  yes.addEventListener("click", async () => {
    yes.disabled = no.disabled = true;
    try {
      await turnOn();
      box.remove();
      ui.notify("Notifications are on in this browser. Change them in Notifications, under your name.");
    } catch (error) {
      box.remove();
      ui.showError(error);
    }
  });
  no.addEventListener("click", () => {
    localStorage.setItem(OFFER_KEY, "dismissed");
    box.remove();
  });
  // In the page's flow under the bar and the notice (not in their sticky block, not over the page): it
  // covers no card and takes no click meant for the game, and it is not focused, since after a move focus
  // belongs to the status line. It belongs to the screen it was offered on: app.js's route() drops it.
  document.getElementById("top").after(box);
}

// Whether this page already asked the API after a move: once per page load, not once per move (a game
// of 28 moves asked 28 times whether push was on).
let askedAfterMove = false;

async function offerAfterMove(event) {
  if (!MOVE_PATH.test(event.detail?.path || "") || !pushSupported() || askedAfterMove) return;
  askedAfterMove = true;
  if (localStorage.getItem(OFFER_KEY) === "dismissed" || Notification.permission === "denied") return;
  try {
    if (await isOn()) return;
    await ui.api.call("GET", "/web-push/key", undefined, { auth: false }); // 501: this deployment has none
  } catch {
    return;
  }
  offer();
}

export function offerPushAfterMoves() {
  window.addEventListener("dixit:moved", offerAfterMove);
}
