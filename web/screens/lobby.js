// Before the game starts: the invite link to pass on, the host's start button, and a way out.

import { h } from "../dom.js";
import { canStart, inviteHash, isHost, leaveQuestion } from "../state.js";
import { act, ui } from "../ui.js";

// A link to pass on, with Copy (and Share where the phone has it). The offered seat's link uses it too.
export function linkField(invite, label, { id = "invite", shareTitle = "Play Dixit with me" } = {}) {
  const field = h("input", { id, readonly: true, value: invite, onfocus: (e) => e.target.select() });
  const copy = h("button", { type: "button", class: "secondary" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(invite);
      ui.notify("Invite link copied.");
    } catch {
      field.select();
      ui.notify("Select the link and copy it.");
    }
  });
  const share = navigator.share
    ? h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => navigator.share({ title: shareTitle, url: invite }).catch(() => {}),
        },
        "Share",
      )
    : null;
  return [h("label", { for: id }, label), h("div", { class: "row" }, field, copy, share)];
}

function inviteField(invite, game) {
  return linkField(
    invite,
    game.visibility === "private" ? "Invite link (private game: only people with this link can join)" : "Invite link",
  );
}

export function lobby({ game }, view) {
  const { gameId } = view;
  const you = game.you;
  const parts = [];
  if (you) parts.push(...inviteField(ui.link(inviteHash(gameId, game)), game));
  if (isHost(game)) {
    const ready = canStart(game);
    const start = h("button", { type: "button", id: "start", disabled: !ready }, "Start the game");
    start.addEventListener("click", () => view.send(start, `/games/${gameId}/start`, () => ({}), "start"));
    const seats = game.players.length;
    parts.push(start, ready ? null : h("p", { class: "small muted" }, `At least 3 players are needed (${seats} so far).`));
  } else if (you) {
    parts.push(h("p", {}, "Waiting for the host to start the game."));
  } else {
    parts.push(h("a", { class: "button", href: `#/join/${gameId}` }, "Join this game"));
  }
  if (you) {
    const leave = h("button", { type: "button", class: "secondary", id: "leave" }, "Leave the game");
    // It sits under Start: asked first, as Remove is, and said once done.
    leave.addEventListener("click", () => {
      if (!window.confirm(leaveQuestion(game))) return;
      act(leave, async () => {
        await ui.api.move(`/games/${gameId}/leave`);
        ui.go("#/", "You left the game.");
      });
    });
    parts.push(leave);
  }
  return parts;
}
