// The link in the mail that confirms an address. Like the sign-in link, it spends nothing on load: one
// tap confirms. The code belongs to the player who asked for it, so it needs that player on this device.

import { h } from "../dom.js";
import { title, ui } from "../ui.js";

const VERIFIED = "Your email is verified: sign in with it on any device to get your games back.";

export function verifyEmailScreen(code) {
  const { api } = ui;
  const button = h("button", { type: "button", id: "confirm-email" }, "Confirm my email");
  button.addEventListener("click", async () => {
    button.disabled = true;
    ui.showError(null);
    try {
      const me = await api.call("POST", "/players/me/email/verify", { code });
      api.rememberMe({ ...api.me, ...me });
      ui.go("#/account", VERIFIED);
    } catch (error) {
      if (!error.signedOut) ui.showError(error);
      button.disabled = false;
    }
  });
  return [
    title("Confirm your email"),
    h("p", { class: "lead" }, `Confirm the email address you added for ${api.me?.name ?? "your player"}?`),
    button,
    h("p", { class: "small" }, h("a", { href: "#/account" }, "Your account"), " · ", h("a", { href: "#/" }, "Not now")),
  ];
}

export function verifyEmailElsewhereScreen() {
  return [
    title("Confirm your email"),
    h(
      "p",
      { class: "lead" },
      "Open this link on the phone or computer where you play: the code confirms the address of the " +
        "player signed in there.",
    ),
    h("p", {}, "You can also type the code from the mail into “Your account” on that device."),
    h("p", {}, h("a", { href: "#/" }, "Play here instead")),
  ];
}
