// Personal tokens (docs/tokens.md): tokens for the player's own scripts and bots, each limited to the
// scopes ticked when it was made. The list shows each one's scopes and last use with its "Revoke"; the
// form makes one and shows it this once (the API never shows it again).

import { TOKEN_SCOPES, tokenRequest, tokenRows } from "../account_state.js";
import { h, replace } from "../dom.js";
import { act, focusOn, ui } from "../ui.js";
import { revocableRow } from "./revocable.js";

const PATH = "/players/me/personal-tokens";
const NO_SCOPE = "Tick at least one thing the token may do.";

export function tokensSection() {
  const { api } = ui;
  const heading = h("h2", { id: "tokens-heading" }, "Tokens for your scripts and bots");
  const list = h("div", { id: "personal-tokens" }, h("p", { class: "muted" }, "Loading your tokens…"));
  const shown = h("div", { id: "new-token", "aria-live": "polite" });

  const item = (row) =>
    revocableRow(row, {
      path: PATH,
      kind: "personal-token",
      dataKey: "data-token",
      revoked: "is revoked: it no longer works.",
      after: async () => {
        replace(shown);
        await load();
        focusOn(heading);
      },
    });

  async function load() {
    const { personal_tokens: tokens } = await api.call("GET", PATH);
    replace(
      list,
      tokens.length
        ? h("ul", { class: "sessions", "aria-labelledby": "tokens-heading" }, tokenRows(tokens).map(item))
        : h("p", { class: "muted small" }, "You have made no token."),
    );
  }

  const name = h("input", { id: "token-name", name: "name", required: true, placeholder: "my Discord bot" });
  const boxes = TOKEN_SCOPES.map((s) =>
    h("input", { type: "checkbox", id: `scope-${s.scope.replace(":", "-")}`, value: s.scope, checked: Boolean(s.checked) }),
  );
  const make = h("button", { type: "submit", id: "token-make" }, "Make a token");
  const form = h(
    "form",
    {
      class: "card-box",
      onsubmit: (event) => {
        event.preventDefault();
        // A token that may do nothing is refused by the API too; said here in the form's own words.
        if (!boxes.some((b) => b.checked)) {
          ui.showError(new Error(NO_SCOPE));
          focusOn(boxes[0]);
          return;
        }
        // The API checks the name and the scopes (its problem's words show in the error line).
        act(make, async () => {
          const asked = tokenRequest(name.value, boxes.filter((b) => b.checked).map((b) => b.value));
          const made = await api.call("POST", PATH, asked);
          name.value = "";
          replace(
            shown,
            h("p", { class: "small" }, `Copy it now: ${made.name}'s token is shown this once.`),
            h("code", { class: "break", id: "new-token-value" }, made.token),
          );
          await load();
        });
      },
    },
    h("label", { for: "token-name" }, "What will hold it"),
    name,
    h(
      "fieldset",
      {},
      h("legend", {}, "What it may do"),
      ...TOKEN_SCOPES.map((s, i) => h("label", { class: "choice" }, boxes[i], s.words)),
    ),
    make,
  );

  const section = h(
    "section",
    { class: "account-part", "aria-labelledby": "tokens-heading" },
    heading,
    h(
      "p",
      { class: "small" },
      "A token lets a program act for you with only the rights you tick: never signing in, your devices, tokens or deleting your account. Revoke one and it stops working at once.",
    ),
    list,
    form,
    shown,
  );
  return { section, load };
}
