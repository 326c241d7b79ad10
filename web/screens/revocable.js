// One row of a list of things that act for the player (an app's grant, a personal token): its name as
// its maker gave it (text only), its rights in words, its last use, and a "Revoke" that deletes it at
// once and then lets the list reload.

import { h } from "../dom.js";
import { act, ui } from "../ui.js";

// `row`: from account_state.js (id, name, scopes, lastUsed, since, revoke); `kind`: the row's own class
// (what the tests find it by); `dataKey`: the attribute holding its id; `revoked` ends the notice;
// `after` runs once it is gone (reload, focus).
export function revocableRow(row, { path, kind, dataKey, revoked, after }) {
  const revoke = h("button", { type: "button", class: "secondary", "aria-label": row.revoke.label }, row.revoke.text);
  revoke.addEventListener("click", () =>
    act(revoke, async () => {
      await ui.api.call("DELETE", `${path}/${encodeURIComponent(row.id)}`);
      ui.notify(`${row.name} ${revoked}`);
      await after();
    }),
  );
  return h(
    "li",
    // `revocable`: the look both lists share (account.css).
    { class: `revocable ${kind}`, [dataKey]: row.id },
    h("strong", {}, row.name),
    h("span", { class: "small" }, row.scopes),
    h("span", { class: "muted small" }, row.lastUsed),
    row.since && h("span", { class: "muted small" }, row.since),
    revoke,
  );
}
