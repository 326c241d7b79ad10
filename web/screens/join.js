// Joining a game from its link: the preview first (host, players, rules, target, free seats), read with
// the link's invite code so that nothing answers 403; a member who opens the link goes straight in.

import { h, replace } from "../dom.js";
import { previewFacts, previewVerdict } from "../join_state.js";
import { act, focusOn, title, ui } from "../ui.js";

export function joinScreen(gameId, code) {
  const { api } = ui;
  const box = h("div", { id: "preview" }, h("p", { class: "muted" }, "Looking up the game…"));
  const join = h("button", { type: "button", id: "join" }, "Join this game");
  let seat = false; // an offered seat in a game under way, rather than a lobby's free seat
  join.addEventListener("click", () =>
    act(join, async () => {
      await api.move(`/games/${gameId}/join`, code ? { invite_code: code } : {});
      ui.go(
        `#/game/${gameId}`,
        seat
          ? "You took the offered seat: its cards and score are yours, and the game goes on with you."
          : "You joined the game. The host starts it once everyone is in.",
      );
    }),
  );
  const query = code ? `?invite_code=${encodeURIComponent(code)}` : "";
  api
    .call("GET", `/games/${gameId}/preview${query}`)
    .then((preview) => {
      if (preview.you_are_in) {
        ui.go(`#/game/${gameId}`);
        return;
      }
      const verdict = previewVerdict(preview);
      seat = Boolean(verdict.seat);
      if (seat) join.textContent = "Take the seat";
      replace(
        box,
        h("h2", { id: "preview-name" }, preview.title || `${preview.host_name}'s game`),
        h(
          "dl",
          { class: "facts" },
          previewFacts(preview).map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
        ),
        h("p", { id: "preview-verdict", class: verdict.joinable ? "" : "lead" }, verdict.text),
        verdict.joinable ? join : null,
      );
      if (!verdict.joinable) focusOn(box.querySelector("#preview-verdict"));
    })
    .catch((error) => {
      if (error.signedOut) return;
      replace(box, h("p", { id: "preview-verdict", class: "lead" }, error.message));
    });
  return [title("Join a game"), box, h("p", {}, h("a", { href: "#/" }, "Back to your games"))];
}
