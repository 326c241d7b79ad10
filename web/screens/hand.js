// The hand when none of it is owed, what the player has played this round (shown while they wait), and
// what every cards panel shares: the hand's grid and the send button.

import { grid } from "../cards.js";
import { h } from "../dom.js";
import { playedHeading } from "../state.js";

// `choose` makes the cards choosable; without it a tap only enlarges a card.
export function handGrid({ game, draft }, view, choose = null) {
  return grid(view.images, game.you.hand || [], { kind: "hand", chosen: draft.chosen, choose });
}

export function sendButton(text, ready, onclick) {
  const button = h("button", { type: "button", id: "send", disabled: !ready }, text);
  button.addEventListener("click", () => onclick(button));
  return button;
}

// The storyteller's card, or the cards submitted: the player's own, so showing them leaks nothing.
export function playedPanel({ game }, view) {
  const played = game.you?.submitted || [];
  if (!played.length || game.phase === "voting") return null;
  const mine = game.round?.storyteller_id === game.you.player_id;
  return h(
    "section",
    { class: "played", "aria-labelledby": "played-heading" },
    h("h2", { id: "played-heading" }, playedHeading(mine, played.length)),
    grid(view.images, played.map((id) => view.images.card(id)), { kind: "played" }),
  );
}

export function handPanel(s, view) {
  return [playedPanel(s, view), h("h2", {}, "Your hand"), handGrid(s, view)];
}

export function watching() {
  return h("p", { class: "muted" }, "You are watching this game.");
}
