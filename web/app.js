// Routing: which screen the address names (start, sign-in, inbox, create, join, a game, the account, or
// a link from a mail), drawn into <main>. account_state.js parses the address and picks the screen.

import { parseRoute, screenFor } from "./account_state.js";
import { h, replace } from "./dom.js";
import { gameScreen } from "./game.js";
import { accountScreen } from "./screens/account.js";
import { authorizeScreen } from "./screens/authorize.js";
import { createScreen } from "./screens/create.js";
import { inboxScreen } from "./screens/inbox.js";
import { joinScreen } from "./screens/join.js";
import { notificationsScreen } from "./screens/notifications.js";
import { verifyEmailElsewhereScreen, verifyEmailScreen } from "./screens/links.js";
import { registerScreen } from "./screens/register.js";
import { signInLinkScreen, signInScreen } from "./screens/signin.js";
import { HINT_SEEN_KEY, HOME_SCREEN_HINT, OFFLINE_TEXT, showHomeScreenHint } from "./install_state.js";
import { shownZone } from "./notify_state.js";
import { offerPushAfterMoves, turnOff } from "./push.js";
import { useTimeZone } from "./state.js";
import { onRoute, stopPolling, ui } from "./ui.js";

const { api, main } = ui;
const PENDING_AUTHORIZATION = "dixit:authorize";

// The consent page needs a signed-in player: without one, the app's request waits in this tab (session
// storage) while the start screen signs the player in, and comes back after.
function pendingAuthorization(parsed, hash, signedIn) {
  try {
    if (parsed.name === "authorize" && !signedIn) window.sessionStorage.setItem(PENDING_AUTHORIZATION, hash);
    const waiting = signedIn ? window.sessionStorage.getItem(PENDING_AUTHORIZATION) : null;
    if (waiting) window.sessionStorage.removeItem(PENDING_AUTHORIZATION);
    return waiting && waiting !== hash ? waiting : null;
  } catch {
    return null; // no storage: the player comes back through the app
  }
}

function showWho() {
  const who = document.getElementById("who");
  const me = api.me;
  replace(
    who,
    me && api.token
      ? [
          h("a", { href: "#/account", id: "account-link", title: "Your account" }, me.name),
          " ",
          h("a", { href: "#/notifications", id: "notifications-link" }, "Notifications"),
          " ",
          h(
            "button",
            {
              class: "link",
              type: "button",
              onclick: async () => {
                if (window.confirm("Forget this player on this device? Keep your token to come back.")) {
                  await turnOff().catch(() => {}); // the next player here must not get this one's pushes
                  api.forget();
                  ui.go("#/");
                }
              },
            },
            "Sign out",
          ),
        ]
      : [],
  );
}

const SCREENS = {
  register: (r, hash) => registerScreen(hash),
  "sign-in": () => signInScreen(),
  "sign-in-link": (r) => signInLinkScreen(r.email, r.code),
  "verify-email": (r) => verifyEmailScreen(r.code),
  "verify-email-elsewhere": () => verifyEmailElsewhereScreen(),
  account: () => accountScreen(),
  authorize: (r) => authorizeScreen(r.query),
  notifications: () => notificationsScreen(),
  new: () => createScreen(),
  join: (r) => joinScreen(r.gameId, r.inviteCode),
  game: (r) => gameScreen(r.gameId, r.card),
  inbox: () => inboxScreen(),
};

function route() {
  stopPolling();
  ui.showError(null);
  ui.notify(ui.takeFlash());
  document.getElementById("push-offer")?.remove(); // offered after a move, on that game's screen only
  showWho();
  const hash = window.location.hash || "#/";
  const parsed = parseRoute(hash);
  // An app's request that came before the player had signed in on this device: back to it once they have.
  const waiting = pendingAuthorization(parsed, hash, Boolean(api.token));
  if (waiting) {
    ui.go(waiting, null, { replace: true });
    return;
  }
  replace(main, SCREENS[screenFor(parsed, Boolean(api.token))](parsed, hash));
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

// Offline, the service worker serves the shell and the last answers stay on screen: say so.
function showOffline() {
  const box = document.getElementById("offline");
  box.textContent = navigator.onLine ? "" : OFFLINE_TEXT;
  box.hidden = navigator.onLine;
}

// Once, on an iPhone or iPad: push reaches a web page there only from the home screen.
function homeScreenHint() {
  const box = document.getElementById("home-screen-hint");
  let seen = true;
  try {
    seen = Boolean(window.localStorage.getItem(HINT_SEEN_KEY));
  } catch {
    // No storage (a private window): showing it on every visit would nag, so never show it.
  }
  const standalone = window.navigator.standalone === true || window.matchMedia?.("(display-mode: standalone)").matches;
  if (!showHomeScreenHint({ userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints, standalone, seen })) return;
  window.localStorage.setItem(HINT_SEEN_KEY, new Date().toISOString());
  const close = h("button", { type: "button", class: "secondary", id: "home-screen-hint-close" }, "Got it");
  close.addEventListener("click", () => {
    box.hidden = true;
  });
  replace(box, h("p", {}, HOME_SCREEN_HINT), close);
  box.hidden = false;
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register(new URL("sw.js", document.baseURI), { scope: "./" }).catch(() => {});
}
window.addEventListener("online", showOffline);
window.addEventListener("offline", showOffline);
showOffline();
homeScreenHint();

// Times in the player's saved zone: known from an earlier visit, else asked once on this device (the
// notifications screen keeps it up to date when it is changed there).
async function learnZone() {
  if (!api.token || api.zone !== null) return;
  const prefs = await api.call("GET", "/players/me/notifications");
  const zone = shownZone(prefs.time_zone);
  api.rememberZone(zone);
  useTimeZone(zone);
  if (zone) route(); // what is on screen was told in the browser's zone
}
useTimeZone(api.zone);

onRoute(route);
window.addEventListener("hashchange", route);
window.addEventListener("dixit:me", showWho);
offerPushAfterMoves();
route();
learnZone().catch(() => {});
