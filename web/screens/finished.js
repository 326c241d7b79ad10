// The end of the game, in the status box's place: who won, and why the game ended.

import { h } from "../dom.js";
import { endReasonText, winnerText } from "../state.js";

export function ending({ game, NameOf }) {
  const reason = endReasonText(game);
  return h(
    "div",
    { class: "status end", id: "status", "data-owes": "" },
    h("p", {}, h("strong", { id: "winner", tabindex: "-1" }, winnerText(game, NameOf))),
    reason ? h("p", { id: "end-reason" }, reason) : null,
  );
}
