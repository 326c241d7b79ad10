// Signing in with email on a new device: the address (POST /sessions mails a code if it belongs to a
// player; the answer is the same either way), then the code (POST /sessions/verify opens a session here).

import { codeSentText, deviceLabel } from "../account_state.js";
import { h, replace } from "../dom.js";
import { codeForm, emailForm } from "../steps.js";
import { focusOn, title, ui } from "../ui.js";

const SIGNED_IN = "Signed in: your games are here.";

export function signInScreen() {
  const { api } = ui;
  const step = h("div", { class: "steps" });

  function emailStep(value = "") {
    const { form, input } = emailForm({
      id: "signin-email",
      label: "The email address you added to your player",
      buttonText: "Send me a code",
      value,
      onEmail: async (email) => {
        await api.call("POST", "/sessions", { email }, { auth: false });
        codeStep(email);
      },
    });
    replace(
      step,
      h("p", {}, "Added an email to your player on another device? We mail you a code to play here too."),
      form,
    );
    return input;
  }

  function codeStep(email) {
    const heading = h("h2", { id: "code-heading" }, "Check your mail");
    const another = h("button", { type: "button", class: "link" }, "Use another address");
    another.addEventListener("click", () => focusOn(emailStep(email)));
    const { form, input } = codeForm({
      id: "signin-code",
      intro: codeSentText({ address: email }),
      buttonText: "Sign in",
      onCode: async (code) => {
        await api.signIn(email, code, deviceLabel(navigator.userAgent));
        ui.go("#/", SIGNED_IN);
      },
      extra: [another],
    });
    replace(
      step,
      heading,
      form,
      h("p", { class: "muted small" }, "No mail after a few minutes? Check the address and your spam folder."),
    );
    focusOn(input);
  }

  emailStep();
  return [title("Sign in with email"), step, h("p", {}, h("a", { href: "#/" }, "New here? Start with a name"))];
}

// The mail's link, opened on this device. Mail scanners open links too, so nothing is spent on load:
// the code is used only when the player taps the one button.
export function signInLinkScreen(email, code) {
  const { api } = ui;
  const button = h("button", { type: "button", id: "confirm-sign-in" }, "Sign in on this device");
  button.addEventListener("click", async () => {
    button.disabled = true;
    ui.showError(null);
    try {
      await api.signIn(email, code, deviceLabel(navigator.userAgent));
      ui.go("#/", SIGNED_IN);
    } catch (error) {
      ui.showError(error);
      button.disabled = false;
    }
  });
  const me = api.token ? api.me : null;
  return [
    title("Sign in"),
    h("p", { class: "lead" }, "Sign in as ", h("strong", { class: "break" }, email), " on this device?"),
    me &&
      h(
        "p",
        { class: "muted" },
        `This device plays as ${me.name} now. Signing in replaces that player here; ` +
          "without an email of their own, their games stay on no other device.",
      ),
    button,
    h(
      "p",
      { class: "small" },
      h("a", { href: "#/sign-in" }, "Ask for a new code"),
      " · ",
      h("a", { href: "#/" }, "Not now"),
    ),
  ];
}
