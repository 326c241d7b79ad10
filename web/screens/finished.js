// The end of the game, in the status box's place: who won, why the game ended, and, for its players, a
// rematch: the same settings, everyone told (the API answers every player with the same lobby).

import { h } from "../dom.js";
import { rematchOffer } from "../rematch_state.js";
import { endReasonText, winnerText } from "../state.js";
import { act, ui } from "../ui.js";

function rematchButton(game, view) {
  const offer = rematchOffer(view.rematch, game.you.player_id);
  const button = offer.label ? h("button", { type: "button", id: "rematch" }, offer.label) : null;
  button?.addEventListener("click", () =>
    act(button, async () => {
      // Opens the lobby, or seats this player in it, or (already in) just answers it: one call for all.
      const lobby = await ui.api.move(`/games/${view.gameId}/rematch`);
      ui.go(
        `#/game/${lobby.game_id}`,
        offer.opened
          ? "You are in the rematch lobby."
          : "You are in the rematch lobby: the other players have been told.",
      );
    }),
  );
  return h(
    "div",
    { class: "rematch" },
    offer.opened ? h("p", { id: "rematch-news" }, h("strong", {}, offer.text)) : null,
    button ? h("p", {}, button) : null,
    offer.opened ? null : h("p", { class: "small muted" }, offer.text),
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
