// Apps (OAuth, docs/tokens.md): the third-party apps the player let act for them, beside the personal
// tokens. Each shows the app as it named itself (text only: the app chose it), its rights in words, its
// last use, and a "Revoke" that stops its tokens at once.

import { appRows } from "../account_state.js";
import { h, replace } from "../dom.js";
import { focusOn, ui } from "../ui.js";
import { revocableRow } from "./revocable.js";

const PATH = "/players/me/apps";

export function appsSection() {
  const { api } = ui;
  const heading = h("h2", { id: "apps-heading" }, "Apps you signed in to");
  const list = h("div", { id: "apps" }, h("p", { class: "muted" }, "Loading your apps…"));

  const item = (row) =>
    revocableRow(row, {
      path: PATH,
      kind: "app-grant",
      dataKey: "data-app",
      revoked: "is revoked: it can no longer act for you.",
      after: async () => {
        await load();
        focusOn(heading);
      },
    });

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
