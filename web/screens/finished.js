// The end of the game, in the status box's place: who won, why the game ended, and, for its players, a
// rematch: the same settings, everyone told (the API answers every player with the same lobby).

import { h } from "../dom.js";
import { endReasonText, winnerText } from "../state.js";
import { act, ui } from "../ui.js";

function rematchButton(game, view) {
  const button = h("button", { type: "button", id: "rematch" }, "Play again (rematch)");
  button.addEventListener("click", () =>
    act(button, async () => {
      const lobby = await ui.api.move(`/games/${view.gameId}/rematch`);
      ui.go(`#/game/${lobby.game_id}`, "You are in the rematch lobby: the other players have been told.");
    }),
  );
  return h(
    "div",
    { class: "rematch" },
    h("p", {}, button),
    h("p", { class: "small muted" }, "The same settings; the other players are told and can join."),
  );
}

export function ending({ game, NameOf }, view) {
  const reason = endReasonText(game);
  return h(
    "div",
    { class: "status end", id: "status", "data-owes": "" },
    h("p", {}, h("strong", { id: "winner", tabindex: "-1" }, winnerText(game, NameOf))),
    reason ? h("p", { id: "end-reason" }, reason) : null,
    game.you && game.rematch_game_id && view ? rematchButton(game, view) : null,
  );
}
