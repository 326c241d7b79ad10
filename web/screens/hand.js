// The hand when none of it is owed, and what every cards panel shares: the hand's grid and the send button.

import { grid } from "../cards.js";
import { h } from "../dom.js";

// `choose` makes the cards choosable; without it a tap only enlarges a card.
export function handGrid({ game, draft }, view, choose = null) {
  return grid(view.images, game.you.hand || [], { kind: "hand", chosen: draft.chosen, choose });
}

export function sendButton(text, ready, onclick) {
  const button = h("button", { type: "button", id: "send", disabled: !ready }, text);
  button.addEventListener("click", () => onclick(button));
  return button;
}

export function handPanel(s, view) {
  return [h("h2", {}, "Your hand"), handGrid(s, view)];
}

export function watching() {
  return h("p", { class: "muted" }, "You are watching this game.");
}
