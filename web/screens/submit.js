// The other players' turn after the clue: the cards from their hand that fit it (two each with 3 players).

import { h } from "../dom.js";
import { cardsMove, countsOf, submitHint, submitReady } from "../state.js";
import { handGrid, sendButton } from "./hand.js";

export function submitPanel(s, view) {
  const { draft, owes } = s;
  const count = countsOf(owes)[0];
  const path = `/games/${view.gameId}/submissions`;
  return [
    h("h2", {}, "Your hand"),
    h("p", {}, submitHint(draft, count)),
    handGrid(s, view, (cardId) => view.choose(cardId, count)),
    sendButton(count === 1 ? "Play this card" : "Play these cards", submitReady(draft, count), (button) =>
      view.send(button, path, cardsMove, "submit"),
    ),
  ];
}
