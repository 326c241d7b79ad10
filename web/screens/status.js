// The status box of a round under way: whose move it is, the clue once told, the deadline addressed to
// whoever owes the move, and a Nudge for a member the game is waiting on others for, once it is fair:
// before then, from when it will be (the API's `nudge_after`).

import { h } from "../dom.js";
import { clueLead, clueLine, deadlineText, statusText } from "../state.js";
import { nudgeState } from "../table_state.js";

export function status({ game, owes, nameOf, NameOf }, view) {
  const line = clueLine(game, owes);
  const deadline = deadlineText(game, owes, nameOf);
  const me = game.you?.player_id;
  const fair = owes ? null : nudgeState(game, Date.now());
  const nudge = fair?.ready
    ? h("button", { type: "button", class: "secondary", id: "nudge", onclick: (e) => view.nudge(e.currentTarget) }, "Nudge")
    : null;
  return h(
    "div",
    { class: `status${owes ? " urgent" : ""}`, id: "status", "data-owes": owes?.move || "" },
    h("p", {}, h("strong", { id: "status-line", tabindex: "-1" }, statusText(game, owes, nameOf))),
    line?.clue
      ? h("p", { class: "clue" }, clueLead(line, me, NameOf), h("q", {}, line.clue))
      : line
        ? h("p", { class: "muted" }, clueLead(line, me, NameOf))
        : null,
    deadline ? h("p", { class: "small muted" }, deadline) : null,
    nudge
      ? h("p", { class: "row" }, nudge, h("span", { class: "small muted" }, "Sends the players you wait for a reminder."))
      : fair
        ? h("p", { class: "small muted", id: "nudge-later" }, fair.text)
        : null,
  );
}
