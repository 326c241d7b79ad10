// What every screen shares: the API client, the error and notice lines, navigation, and the one poller
// that runs at a time (the current screen's, stopped on navigation).

import { Api, apiBase } from "./api.js";
import { h } from "./dom.js";
import { Poller } from "./poller.js";

const errorBox = document.getElementById("error");
const noticeBox = document.getElementById("notice");
let current = null;
let router = () => {};

export const ui = {
  api: new Api(apiBase()),
  main: document.getElementById("main"),
  showError(error) {
    errorBox.textContent = error ? error.message || String(error) : "";
    errorBox.hidden = !error;
  },
  notify(text) {
    noticeBox.textContent = text || "";
    noticeBox.hidden = !text;
  },
  // Going to the route already shown draws it again: no hashchange would fire.
  go(hash) {
    if (window.location.hash === hash) router();
    else window.location.hash = hash;
  },
  poll(tick) {
    current = new Poller(tick, (error) => ui.showError(error));
    current.start();
    return current;
  },
  // A link that opens this client (with the same ?api=) on another route.
  link(hash) {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${hash}`;
  },
};

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
  ui.showError(null);
  for (const c of controls) c.disabled = true;
  button.disabled = true;
  try {
    return await action();
  } catch (error) {
    ui.showError(error);
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
