// The two steps the sign-in and the account screens share: an email address, then the 6-digit code that
// was mailed to it. Each checks its input before anything is sent and says what is wrong in words.

import { cleanCode, codeProblem, emailProblem } from "./account_state.js";
import { h } from "./dom.js";
import { act, ui } from "./ui.js";

// The error goes to the live region; the field is marked and keeps the focus, so it can be fixed at once.
function refuse(input, message) {
  ui.showError(new Error(message));
  input.setAttribute("aria-invalid", "true");
  input.focus();
}

export function emailForm({ id, label, buttonText, value = "", onEmail, extra = [] }) {
  const input = h("input", {
    id,
    name: "email",
    type: "email",
    inputmode: "email",
    autocomplete: "email",
    autocapitalize: "off",
    spellcheck: false,
    required: true,
    value,
  });
  return checkedForm({ id, input, buttonText, extra, problemOf: emailProblem, send: (text) => onEmail(text.trim()) }, [
    h("label", { for: id }, label),
  ]);
}

// One form for either step: the input is checked on submit, then `send` gets its value; `lead` comes
// before the input (its label, an introduction), the button and `extra` after it.
function checkedForm({ id, input, buttonText, extra, problemOf, send }, lead) {
  const button = h("button", { type: "submit", id: `${id}-send` }, buttonText);
  const form = h(
    "form",
    {
      class: "card-box",
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        const problem = problemOf(input.value);
        if (problem) return refuse(input, problem);
        input.removeAttribute("aria-invalid");
        return act(button, () => send(input.value));
      },
    },
    ...lead,
    input,
    h("div", {}, button, extra),
  );
  return { form, input, button };
}

export function codeForm({ id, intro, buttonText, onCode, extra = [] }) {
  const input = h("input", {
    id,
    name: "code",
    inputmode: "numeric",
    autocomplete: "one-time-code",
    pattern: "[0-9]*",
    maxlength: 9, // room for "123 456" pasted with its space
    spellcheck: false,
    required: true,
    "aria-describedby": `${id}-intro`,
    class: "code",
  });
  return checkedForm({ id, input, buttonText, extra, problemOf: codeProblem, send: (text) => onCode(cleanCode(text)) }, [
    h("p", { id: `${id}-intro` }, intro),
    h("label", { for: id }, "The 6-digit code"),
  ]);
}
