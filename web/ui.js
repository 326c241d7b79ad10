// What every screen shares: the API client, the error and notice lines, navigation, and the one poller
// that runs at a time (the current screen's, stopped on navigation).

import { Api, apiBase } from "./api.js";
import { h } from "./dom.js";
import { Poller } from "./poller.js";

const errorBox = document.getElementById("error");
const noticeBox = document.getElementById("notice");
const topBlock = document.getElementById("top");

// Whatever is scrolled to (a focused field, a form check's complaint) lands below the sticky top (the
// bar, the offline line, the notice and the error), not under it. Set at once when a line changes, so a
// field focused right after an error is already clear of it; an observer catches the rest (offline).
function keepClearOfTop() {
  if (topBlock) document.documentElement.style.scrollPaddingTop = `${topBlock.offsetHeight + 8}px`;
}
if (topBlock && typeof ResizeObserver === "function") new ResizeObserver(keepClearOfTop).observe(topBlock);
let current = null;
let router = () => {};
let flash = null; // a notice for the next screen, shown once route() has cleared the last one

export const ui = {
  api: new Api(apiBase()),
  main: document.getElementById("main"),
  showError(error) {
    errorBox.textContent = error ? error.message || String(error) : "";
    errorBox.hidden = !error;
    keepClearOfTop();
  },
  notify(text) {
    noticeBox.textContent = text || "";
    noticeBox.hidden = !text;
    keepClearOfTop();
  },
  // Going to the route already shown draws it again: no hashchange would fire. A notice given here
  // shows on the screen gone to.
  // With `replace`, the screen gone to takes the current one's place in the history (Back skips it).
  go(hash, notice = null, { replace = false } = {}) {
    flash = notice;
    if (window.location.hash === hash) router();
    else if (replace) window.location.replace(hash);
    else window.location.hash = hash;
  },
  takeFlash() {
    const notice = flash;
    flash = null;
    return notice;
  },
  poll(tick) {
    // A 401 has already sent the player to the start screen (api.onSignedOut): no error to show for it.
    // A failed poll's error goes once a poll works again, so it never outlives the problem.
    let failed = false;
    const ticked = async () => {
      const wait = await tick();
      if (failed) ui.showError(null);
      failed = false;
      return wait;
    };
    current = new Poller(ticked, (error) => {
      if (error.signedOut) return;
      failed = true;
      // Offline, the offline line already says why nothing new comes: no second, redder line for it.
      if (error.network && !navigator.onLine) return;
      ui.showError(error);
    });
    current.start();
    return current;
  },
  // A link that opens this client (with the same ?api=) on another route.
  link(hash) {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${hash}`;
  },
};

ui.api.onSignedOut = () => {
  stopPolling();
  ui.go("#/", "This device was signed out. Sign in again to play here.");
};

// Moves focus to the next step of a form: its input, or its heading (made focusable for that).
export function focusOn(el) {
  if (!el) return;
  if (!el.matches("input, button, select, textarea, a[href]") && !el.hasAttribute("tabindex")) {
    el.setAttribute("tabindex", "-1");
  }
  el.focus();
}

// app.js owns the routes; this only lets ui.go reach them without an import cycle.
export function onRoute(route) {
  router = route;
}

export function stopPolling() {
  current?.stop();
  current = null;
}

// Runs a button's action, disabling the form meanwhile and showing the problem's detail on failure.
export async function act(button, action) {
  const form = button.form || button.closest("form") || button;
  const controls = form.querySelectorAll ? form.querySelectorAll("button, input, select, textarea") : [];
  // An earlier answer (a notice) speaks of what was done before: this action's answer replaces it.
  ui.showError(null);
  ui.notify(null);
  for (const c of controls) c.disabled = true;
  button.disabled = true;
  try {
    return await action();
  } catch (error) {
    if (!error.signedOut) ui.showError(error);
    return undefined;
  } finally {
    for (const c of controls) c.disabled = false;
    button.disabled = false;
  }
}

export function title(text) {
  document.title = `${text} · Dixit by mail`;
  return h("h1", {}, text);
}
