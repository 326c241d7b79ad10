// The account screen (#/account): the name others see, the email that brings the games back, the devices
// signed in, the personal tokens of the player's scripts and bots, a download of everything the service
// keeps, and deleting the account (confirmed in the page).

import { deleteReady } from "../account_state.js";
import { h, replace } from "../dom.js";
import { act, focusOn, title, ui } from "../ui.js";
import { emailSection } from "./account_email.js";
import { sessionsSection } from "./account_sessions.js";
import { appsSection } from "./account_apps.js";
import { tokensSection } from "./account_tokens.js";

const EXPORT_NAME = "dixit-export.json";

function nameSection(me) {
  const { api } = ui;
  const input = h("input", { id: "rename", name: "name", required: true, autocomplete: "nickname", value: me.name });
  const save = h("button", { type: "submit", id: "rename-send" }, "Save name");
  const form = h(
    "form",
    {
      class: "card-box",
      onsubmit: (event) => {
        event.preventDefault();
        // The API checks the name (its problem's words show in the error line): no second set of rules here.
        act(save, async () => {
          const renamed = await api.call("PATCH", "/players/me", { name: input.value.trim() });
          api.rememberMe({ ...api.me, ...renamed });
          window.dispatchEvent(new Event("dixit:me"));
          ui.notify(`Saved. Games you join or create from now on show you as ${renamed.name}.`);
        });
      },
    },
    h("label", { for: "rename" }, "Your name, as other players will see it"),
    input,
    h("p", { class: "muted small" }, "Games already started keep the name you had in them."),
    h("div", {}, save),
  );
  return h("section", { class: "account-part" }, h("h2", {}, "Your name"), form);
}

function dataSection() {
  const { api } = ui;
  const button = h("button", { type: "button", class: "secondary", id: "export" }, "Download my data");
  const saved = h("p", { class: "small", id: "export-link" });
  let url = null;
  button.addEventListener("click", () =>
    act(button, async () => {
      const doc = await api.call("GET", "/players/me/export");
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
      const link = h("a", { href: url, download: EXPORT_NAME }, `Save ${EXPORT_NAME} again`);
      replace(saved, "Your data is ready. ", link);
      link.click();
    }),
  );
  return h(
    "section",
    { class: "account-part" },
    h("h2", {}, "Your data"),
    h("p", {}, "Everything the service keeps about you, as one JSON file."),
    button,
    saved,
  );
}

function deleteSection(me) {
  const { api } = ui;
  const heading = h("h2", { id: "delete-heading" }, "Delete my account");
  const body = h("div", {});

  function first() {
    const ask = h("button", { type: "button", class: "danger", id: "delete-start" }, "Delete my account…");
    ask.addEventListener("click", confirmStep);
    replace(
      body,
      h(
        "p",
        {},
        "Your email and every device's session go for good, and your seat in your games shows " +
          "“Deleted player”. This cannot be undone.",
      ),
      ask,
    );
    return ask;
  }

  function confirmStep() {
    const name = api.me?.name ?? me.name; // renamed on this screen a moment ago, perhaps
    const typed = h("input", { id: "delete-name", name: "confirm", autocomplete: "off", spellcheck: false });
    const really = h("button", { type: "submit", class: "danger", id: "delete-confirm", disabled: true }, "Delete my account for good");
    const keep = h("button", { type: "button", class: "secondary" }, "Keep my account");
    typed.addEventListener("input", () => {
      really.disabled = !deleteReady(typed.value, name);
    });
    keep.addEventListener("click", () => focusOn(first()));
    const form = h(
      "form",
      {
        class: "card-box danger-box",
        onsubmit: (event) => {
          event.preventDefault();
          if (!deleteReady(typed.value, name)) return;
          act(really, async () => {
            await api.call("DELETE", "/players/me");
            api.forget();
            ui.go("#/", "Your account is deleted. Thank you for playing.");
          });
        },
      },
      h("h3", { id: "delete-check" }, "Are you sure?"),
      h("label", { for: "delete-name" }, `Type your name, ${name}, to confirm`),
      typed,
      h("div", {}, really, keep),
    );
    replace(body, form);
    focusOn(typed);
  }

  first();
  return h("section", { class: "account-part", "aria-labelledby": "delete-heading" }, heading, body);
}

// The token: what it is for, said in its heading, and kept behind a disclosure (it is a password).
function tokenSection(token) {
  return h(
    "section",
    { class: "account-part", "aria-labelledby": "token-heading" },
    h("h2", { id: "token-heading" }, "Play from another device without email"),
    h(
      "p",
      { class: "small" },
      "Your token is your key to this player: on another phone, “Use a token from another device” on the start screen takes it. Anyone with it plays as you, so keep it to yourself, and never give it to a script, a bot or an app: make a personal token for them above.",
    ),
    h("details", { class: "token" }, h("summary", {}, "Show your token"), h("code", { class: "break", id: "token" }, token)),
  );
}

export function accountScreen() {
  const { api } = ui;
  const root = h("div", { class: "account" }, h("p", { class: "muted" }, "Loading your account…"));
  const sessions = sessionsSection();
  const tokens = tokensSection();
  const apps = appsSection();
  (async () => {
    const me = await api.call("GET", "/players/me");
    api.rememberMe({ ...api.me, ...me });
    replace(
      root,
      nameSection(me),
      emailSection(me),
      sessions.section,
      tokens.section,
      apps.section,
      tokenSection(api.token),
      dataSection(),
      deleteSection(me),
    );
    await Promise.all([sessions.load(), tokens.load(), apps.load()]);
  })().catch((error) => !error.signedOut && ui.showError(error));
  return [
    title("Your account"),
    h("p", {}, h("a", { href: "#/" }, "← Back to your games")),
    root,
  ];
}
