// "Keep my games: add your email": the address (POST /players/me/email mails a code), the code
// (POST /players/me/email/verify), then the verified address, which signs this player in anywhere.

import { codeSentText, emailPanel, expiryText } from "../account_state.js";
import { h, replace } from "../dom.js";
import { codeForm, emailForm } from "../steps.js";
import { act, focusOn, ui } from "../ui.js";

export function emailSection(player) {
  const { api } = ui;
  const section = h("section", { class: "account-part", "aria-labelledby": "email-heading" });
  let me = player;
  let pending = null;
  let changing = false;

  const send = (email) => api.call("POST", "/players/me/email", { email });

  function linkButton(text, onclick) {
    const button = h("button", { type: "button", class: "link" }, text);
    button.addEventListener("click", () => onclick(button));
    return button;
  }

  function addStep(panel) {
    const keep = panel.current && linkButton(`Keep ${panel.current}`, () => {
      changing = false;
      draw();
    });
    const { form, input } = emailForm({
      id: "email",
      label: "Your email address",
      buttonText: "Send me a code",
      value: panel.current || "",
      onEmail: async (email) => {
        pending = await send(email);
        changing = false;
        draw();
      },
      extra: keep ? [keep] : [],
    });
    const why = "Lose this phone and your games go with it, unless an email brings them back: sign in with it on any device.";
    return { parts: [h("p", {}, why), form], focus: input };
  }

  function codeStep(panel) {
    const again = linkButton("Send a new code", (button) =>
      act(button, async () => {
        pending = await send(panel.address);
        draw();
        ui.notify(`A new code is on its way to ${panel.address}.`);
      }),
    );
    const other = linkButton("Use another address", () => {
      pending = null;
      changing = true;
      draw();
    });
    const { form, input } = codeForm({
      id: "email-code",
      intro: [codeSentText(panel), expiryText(panel.expiresAt)].filter(Boolean).join(" "),
      buttonText: "Confirm my email",
      onCode: async (code) => {
        me = await api.call("POST", "/players/me/email/verify", { code });
        api.rememberMe({ ...api.me, ...me });
        pending = null;
        draw();
        ui.notify("Your email is verified.");
      },
      extra: [again, other],
    });
    return { parts: [form], focus: input };
  }

  function verifiedStep(panel) {
    const change = h("button", { type: "button", class: "secondary", id: "change-email" }, "Change address");
    change.addEventListener("click", () => {
      changing = true;
      draw();
    });
    const shown = h(
      "p",
      { class: "address", id: "email-address" },
      h("strong", { class: "break" }, panel.address),
      " ",
      h("span", { class: "tag ok" }, "verified"),
    );
    return {
      parts: [shown, h("p", { class: "muted small" }, "Sign in with it on any device: your games come along."), change],
      focus: null,
    };
  }

  // Redraws the section for its current step and moves focus into that step (not on the first draw).
  function draw(moveFocus = true) {
    const panel = emailPanel(me, { pending, changing });
    const heading = h("h2", { id: "email-heading" }, panel.heading || "Check your mail");
    const step = { add: addStep, code: codeStep, verified: verifiedStep }[panel.step](panel);
    replace(section, heading, step.parts);
    section.dataset.step = panel.step;
    if (moveFocus) focusOn(step.focus || heading);
  }

  draw(false);
  return section;
}
