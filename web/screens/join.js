// Joining a game from its link; a member who opens the link goes straight to the game.

import { h, replace } from "../dom.js";
import { act, title, ui } from "../ui.js";

export function joinScreen(gameId, code) {
  const { api } = ui;
  const box = h("div", {}, h("p", { class: "muted" }, "Looking up the game…"));
  const join = h("button", { type: "button", id: "join" }, "Join this game");
  join.addEventListener("click", () =>
    act(join, async () => {
      await api.move(`/games/${gameId}/join`, code ? { invite_code: code } : {});
      ui.go(`#/game/${gameId}`);
    }),
  );
  api
    .get(`/games/${gameId}`)
    .then((game) => {
      if (game.you) {
        ui.go(`#/game/${gameId}`);
        return;
      }
      const names = game.players.map((p) => p.name).join(", ");
      replace(box, h("p", {}, `Players so far: ${names}.`), join);
    })
    // A private game hides itself from non-members: the invite code in the link is what lets us in.
    .catch(() => replace(box, h("p", {}, "You were invited to a game."), join));
  return [title("Join a game"), box, h("p", {}, h("a", { href: "#/" }, "Back to your games"))];
}
