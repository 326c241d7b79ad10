// The storyteller's turn: one card from the hand, and the clue.

import { h } from "../dom.js";
import { clueMove, clueReady } from "../state.js";
import { handGrid, sendButton } from "./hand.js";

export function cluePanel(s, view) {
  const { draft } = s;
  const path = `/games/${view.gameId}/clue`;
  const send = sendButton("Tell the clue", clueReady(draft), (button) => view.send(button, path, clueMove));
  const clue = h("input", {
    id: "clue",
    maxlength: 200,
    autocomplete: "off",
    value: draft.clue,
    oninput: (e) => {
      send.disabled = !clueReady(view.typeClue(e.target.value));
    },
  });
  return [
    h("h2", {}, "Your hand"),
    h("p", { class: "small muted" }, "Tap a card to see it big, then choose it."),
    handGrid(s, view, (cardId) => view.choose(cardId, 1)),
    h("label", { for: "clue" }, "Your clue (a word, a sentence, a sound…)"),
    clue,
    send,
  ];
}
