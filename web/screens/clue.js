// The storyteller's turn: one card from the hand, and the clue, with a counter that says when it is full.

import { h } from "../dom.js";
import { clueMove, clueReady } from "../state.js";
import { CLUE_LIMIT, clueCounter } from "../words.js";
import { handGrid, sendButton } from "./hand.js";

export function cluePanel(s, view) {
  const { draft } = s;
  const path = `/games/${view.gameId}/clue`;
  const send = sendButton("Tell the clue", clueReady(draft), (button) => view.send(button, path, clueMove, "clue"));
  const counted = clueCounter(draft.clue);
  const counter = h(
    "p",
    { id: "clue-count", class: `small counter${counted.full ? " full" : ""}`, "aria-live": "polite" },
    counted.text,
  );
  const clue = h("input", {
    id: "clue",
    maxlength: CLUE_LIMIT,
    autocomplete: "off",
    value: draft.clue,
    "aria-describedby": "clue-count",
    oninput: (e) => {
      send.disabled = !clueReady(view.typeClue(e.target.value));
      const now = clueCounter(e.target.value);
      counter.textContent = now.text;
      counter.classList.toggle("full", now.full);
    },
  });
  return [
    h("h2", {}, "Your hand"),
    h("p", { class: "small muted" }, "Tap a card to see it big, then choose it."),
    handGrid(s, view, (cardId) => view.choose(cardId, 1)),
    h("label", { for: "clue" }, "Your clue (a word, a sentence, a sound…)"),
    clue,
    counter,
    send,
  ];
}
