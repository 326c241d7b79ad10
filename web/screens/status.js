// The status box of a round under way: whose move it is, the clue once told, and the deadline.

import { h } from "../dom.js";
import { clueLine, deadlineText, statusText } from "../state.js";

export function status({ game, owes, nameOf, NameOf }) {
  const line = clueLine(game, owes);
  const deadline = deadlineText(game, owes);
  return h(
    "div",
    { class: `status${owes ? " urgent" : ""}`, id: "status", "data-owes": owes?.move || "" },
    h("p", {}, h("strong", {}, statusText(game, owes, nameOf))),
    line?.clue
      ? h("p", { class: "clue" }, `${NameOf(line.teller)}'s clue: `, h("q", {}, line.clue))
      : line
        ? h("p", { class: "muted" }, `${NameOf(line.teller)} is the storyteller.`)
        : null,
    deadline ? h("p", { class: "small muted" }, deadline) : null,
  );
}
