// The devices signed in as this player (GET /players/me/sessions): this one first, each other one with
// its own "Sign out this device", and "Sign out everywhere else" while there is another.

import { othersSignedIn, sessionRows } from "../account_state.js";
import { h, replace } from "../dom.js";
import { act, focusOn, ui } from "../ui.js";

export function sessionsSection() {
  const { api } = ui;
  const heading = h("h2", { id: "sessions-heading" }, "Devices signed in");
  const list = h("div", { id: "sessions" }, h("p", { class: "muted" }, "Loading your devices…"));

  async function signOut(button, path, words) {
    await act(button, async () => {
      await api.call("DELETE", path);
      ui.notify(words);
      await load();
      focusOn(heading);
    });
  }

  function item(row) {
    const out =
      row.signOut &&
      h("button", { type: "button", class: "secondary", "aria-label": row.signOut.label }, row.signOut.text);
    out?.addEventListener("click", () =>
      signOut(out, `/players/me/sessions/${encodeURIComponent(row.id)}`, `${row.device} is signed out.`),
    );
    return h(
      "li",
      { class: `session${row.current ? " current" : ""}`, "data-session": row.id },
      h("strong", {}, row.device),
      row.current && h("span", { class: "tag ok" }, "this device"),
      h("span", { class: "muted small" }, row.lastUsed),
      row.since && h("span", { class: "muted small" }, row.since),
      out,
    );
  }

  async function load() {
    const { sessions } = await api.call("GET", "/players/me/sessions");
    const everywhere = h("button", { type: "button", id: "sign-out-others" }, "Sign out everywhere else");
    everywhere.addEventListener("click", () =>
      signOut(everywhere, "/players/me/sessions", "Every other device is signed out."),
    );
    replace(
      list,
      h("ul", { class: "sessions", "aria-labelledby": "sessions-heading" }, sessionRows(sessions).map(item)),
      othersSignedIn(sessions)
        ? everywhere
        : h("p", { class: "muted small" }, "No other device is signed in as you."),
    );
  }

  const section = h("section", { class: "account-part", "aria-labelledby": "sessions-heading" }, heading, list);
  return { section, load };
}
