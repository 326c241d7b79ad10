// Registering a name (the token then stays in this browser), signing in with the email added on another
// device, or bringing a token from another device.

import { deviceLabel } from "../account_state.js";
import { h } from "../dom.js";
import { act, title, ui } from "../ui.js";

export function registerScreen(next) {
  const { api } = ui;
  const name = h("input", {
    id: "name",
    name: "name",
    required: true,
    maxlength: 40,
    autocomplete: "nickname",
    placeholder: "Ada",
  });
  const token = h("input", { id: "token", name: "token", autocomplete: "off", spellcheck: false });
  const start = h("button", { type: "submit" }, "Start playing");
  const useToken = h("button", { type: "submit", class: "secondary" }, "Use this token");
  return [
    title("Welcome"),
    h("p", {}, "Dixit, played at your own pace: one move when it is your turn, from any phone."),
    h(
      "form",
      {
        class: "card-box",
        onsubmit: (event) => {
          event.preventDefault();
          act(start, async () => {
            await api.register(name.value.trim(), deviceLabel(navigator.userAgent));
            ui.go(next);
          });
        },
      },
      h("label", { for: "name" }, "Your name, as other players will see it"),
      name,
      start,
    ),
    h("h2", {}, "Played before?"),
    h("p", {}, "If you added your email to your player, sign in with it: your games come along."),
    h("p", {}, h("a", { class: "button secondary", href: "#/sign-in", id: "sign-in-email" }, "Sign in with email")),
    h(
      "details",
      {},
      h("summary", {}, "No email? Use a token from another device"),
      h(
        "form",
        {
          onsubmit: (event) => {
            event.preventDefault();
            act(useToken, async () => {
              await api.useToken(token.value.trim());
              ui.go(next);
            });
          },
        },
        h("label", { for: "token" }, "Your token (from that device's account screen, under “Play from another device without email”)"),
        token,
        useToken,
      ),
    ),
  ];
}
