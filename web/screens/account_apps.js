// Apps (OAuth, docs/tokens.md): the third-party apps the player let act for them, beside the personal
// tokens. Each shows the app as it named itself (text only: the app chose it), its rights in words, its
// last use, and a "Revoke" that stops its tokens at once.

import { appRows } from "../account_state.js";
import { h, replace } from "../dom.js";
import { act, focusOn, ui } from "../ui.js";

const PATH = "/players/me/apps";

export function appsSection() {
  const { api } = ui;
  const heading = h("h2", { id: "apps-heading" }, "Apps you signed in to");
  const list = h("div", { id: "apps" }, h("p", { class: "muted" }, "Loading your apps…"));

  function item(row) {
    const revoke = h("button", { type: "button", class: "secondary", "aria-label": row.revoke.label }, row.revoke.text);
    revoke.addEventListener("click", () =>
      act(revoke, async () => {
        await api.call("DELETE", `${PATH}/${encodeURIComponent(row.id)}`);
        ui.notify(`${row.name} is revoked: it can no longer act for you.`);
        await load();
        focusOn(heading);
      }),
    );
    return h(
      "li",
      { class: "app-grant", "data-app": row.id },
      h("strong", {}, row.name),
      h("span", { class: "small" }, row.scopes),
      h("span", { class: "muted small" }, row.lastUsed),
      row.since && h("span", { class: "muted small" }, row.since),
      revoke,
    );
  }

  async function load() {
    const { apps } = await api.call("GET", PATH);
    replace(
      list,
      apps.length
        ? h("ul", { class: "sessions", "aria-labelledby": "apps-heading" }, appRows(apps).map(item))
        : h("p", { class: "muted small" }, "You have let no app act for you."),
    );
  }

  const section = h(
    "section",
    { class: "account-part", "aria-labelledby": "apps-heading" },
    heading,
    h(
      "p",
      { class: "small" },
      "Apps and bots you allowed to act for you with “Sign in with Dixit by mail”. They hold only the rights you allowed; revoke one and it stops at once.",
    ),
    list,
  );
  return { section, load };
}
