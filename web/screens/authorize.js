// The consent page of OAuth (docs/tokens.md): an app sent the player here (GET /oauth/authorize → 302 →
// #/authorize?<its query>). The API checks the request first (GET /oauth/consent); only a good one is
// shown: the app as it names itself, what it asks in plain words, and where the browser goes back. A bad
// one is shown as an error and never followed. Approve or refuse is the API's call (POST
// /oauth/authorize), which answers the address to go to: the app's, with a code or access_denied.
// Everything the app chose (client_id, redirect_uri, state) is put on the page as text, never as markup.

import { h, replace } from "../dom.js";
import { act, title, ui } from "../ui.js";

const FIELDS = ["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method"];

export function authorizeScreen(query) {
  const { api } = ui;
  const asked = new URLSearchParams(query || "");
  const root = h("div", { class: "consent", id: "consent" }, h("p", { class: "muted" }, "Checking the app's request…"));

  function leave(where) {
    // Only an address the API built from a checked request: the app's own redirect URI.
    window.location.assign(where);
  }

  function decide(button, approve) {
    return act(button, async () => {
      const body = { approve };
      for (const name of FIELDS) body[name] = asked.get(name) || "";
      if (!body.response_type) body.response_type = "code";
      const { redirect_to: where } = await api.call("POST", "/oauth/authorize", body);
      replace(root, h("p", { id: "consent-done" }, approve ? "Approved: back to the app…" : "Refused: back to the app…"));
      leave(where);
    });
  }

  (async () => {
    const params = new URLSearchParams();
    for (const name of FIELDS) if (asked.has(name)) params.set(name, asked.get(name));
    let request;
    try {
      request = await api.call("GET", `/oauth/consent?${params}`);
    } catch (error) {
      if (error.signedOut) return;
      replace(
        root,
        h("h2", { id: "consent-refused" }, "This app's request cannot be approved"),
        h("p", { id: "consent-problem" }, error.message),
        h("p", {}, h("a", { href: "#/" }, "← Back to your games")),
      );
      return;
    }
    const approve = h("button", { type: "button", id: "consent-approve" }, "Allow");
    const refuse = h("button", { type: "button", class: "secondary", id: "consent-refuse" }, "Refuse");
    approve.addEventListener("click", () => decide(approve, true));
    refuse.addEventListener("click", () => decide(refuse, false));
    replace(
      root,
      h(
        "p",
        {},
        "An app that calls itself ",
        h("strong", { id: "consent-client" }, request.client_id),
        " asks to act for you, ",
        h("strong", {}, api.me?.name || "this player"),
        ". Nobody checked who made it: allow it only if you trust where you came from.",
      ),
      h("h2", { id: "consent-scopes-heading" }, "It will be able to"),
      h(
        "ul",
        { id: "consent-scopes", "aria-labelledby": "consent-scopes-heading" },
        request.scopes.map((s) => h("li", { "data-scope": s.scope }, s.meaning)),
      ),
      h(
        "p",
        { class: "small" },
        "It will never be able to sign in as you elsewhere, see your sessions or tokens, or delete your account. You can revoke it at any time on your account screen.",
      ),
      h("p", { class: "small" }, "Afterwards your browser goes back to ", h("code", { class: "break", id: "consent-redirect" }, request.redirect_uri)),
      h("div", { class: "consent-actions" }, approve, refuse),
    );
  })().catch((error) => !error.signedOut && ui.showError(error));
  return [title("Allow an app?"), root];
}
