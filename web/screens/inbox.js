// The inbox: this player's games (their turn first, then the rest, then the latest finished ones), the
// public games waiting for players. (The token that brings this player to another device is on the
// account screen.)

import { h, replace } from "../dom.js";
import {
  gameName,
  inboxDeadline,
  inboxFacts,
  inboxOrder,
  inboxOrigin,
  inboxStatus,
  playersLine,
  tabTitle,
  yourTurnCount,
} from "../inbox_state.js";
import { rematchOffer } from "../rematch_state.js";
import { act, title, ui } from "../ui.js";

// The finished games whose rematch is looked up, once per visit of this screen: the latest few.
const REMATCHES_LOOKED_UP = 5;

// Under a finished game: who opened its rematch, and the one tap that joins it (or goes there).
function rematchRow(game, me, page) {
  if (!page) return null; // not looked up, or nobody opened it: the entry says enough
  const offer = rematchOffer(page, me);
  if (!offer.opened || !offer.label) return null;
  const button = h("button", { type: "button", class: "secondary", "data-rematch": game.game_id }, offer.label);
  button.addEventListener("click", () =>
    act(button, async () => {
      const lobby = await ui.api.move(`/games/${game.game_id}/rematch`);
      ui.go(`#/game/${lobby.game_id}`, "You are in the rematch lobby.");
    }),
  );
  return h("div", { class: "rematch-row" }, h("p", { class: "small" }, offer.text), button);
}

function inboxItem(game, me, rematches) {
  const facts = inboxFacts(game, me);
  const deadline = inboxDeadline(game);
  const players = playersLine(game, me);
  const origin = inboxOrigin(game, me);
  return h(
    "li",
    { "data-game": game.game_id },
    h(
      "a",
      { class: `game-link${game.your_turn ? " urgent" : ""}`, href: `#/game/${game.game_id}` },
      h("strong", { class: "game-name" }, gameName(game, me)),
      h("span", { class: "game-status" }, inboxStatus(game, me)),
      players ? h("span", { class: "muted small" }, players) : null,
      facts ? h("span", { class: "muted" }, facts) : null,
      deadline ? h("span", { class: "small" }, deadline) : null,
      origin ? h("span", { class: "muted small" }, origin) : null,
    ),
    rematchRow(game, me, rematches.get(game.game_id)),
  );
}

function openItem(game) {
  return h(
    "li",
    {},
    h(
      "a",
      { class: "game-link", href: `#/join/${game.game_id}` },
      // A titled lobby is named by its title, as the player's own games are (inbox_state.gameName).
      game.title ? h("strong", { class: "game-name" }, game.title) : null,
      h(
        game.title ? "span" : "strong",
        {},
        `${game.rules === "odyssey" ? "Odyssey" : "Classic"} · ${game.player_count} of ${game.max_players} seats taken`,
      ),
      h("span", { class: "muted" }, (game.player_names || []).join(", ")),
    ),
  );
}

export function inboxScreen() {
  const { api } = ui;
  const mine = h("div", { id: "my-games" }, h("p", { class: "muted" }, "Loading your games…"));
  const open = h("div", { id: "open-games" });
  let memberOf = new Set();
  let openLoaded = false;
  let drawn = false;
  let drawList = () => {};
  const rematches = new Map(); // finished game id -> its rematch lobby's page, null when none is open
  const lookUpRematches = async (games) => {
    const finished = games.filter((g) => g.phase === "finished" && g.rematch_game_id && !rematches.has(g.game_id));
    for (const g of finished.slice(0, REMATCHES_LOOKED_UP)) {
      try {
        // The rematch's own resource: `lobby` is null until someone opens it (no 404 in the console).
        rematches.set(g.game_id, (await api.call("GET", `/games/${g.game_id}/rematch`)).lobby);
      } catch (error) {
        if (error.status !== 404) throw error;
        rematches.set(g.game_id, null);
      }
    }
    if (finished.length) drawList();
  };
  const loadOpen = async () => {
    const { games } = await api.get("/games?status=open");
    const joinable = games.filter((g) => !memberOf.has(g.game_id));
    replace(
      open,
      joinable.length
        ? h("ul", { class: "games" }, joinable.map(openItem))
        : h("p", { class: "muted" }, "No public game is waiting for players right now."),
    );
  };
  ui.poll(async () => {
    const active = await api.poll("/players/me/games");
    // Finished games are listed apart (newest first, by page): the latest page goes under the live ones.
    const finished = await api.poll("/players/me/games?status=finished");
    const { wait } = active;
    // A 304 on coming back to this screen still has to draw it once, from the cached answer.
    if (active.changed || finished.changed || !drawn) {
      drawn = true;
      const all = [...active.body.games, ...finished.body.games];
      memberOf = new Set(all.map((g) => g.game_id));
      const games = inboxOrder(all);
      const me = api.me?.player_id;
      // Seen from another tab, or in the phone's app switcher: how many games wait on this player.
      document.title = tabTitle(yourTurnCount(games));
      drawList = () =>
        replace(
          mine,
          games.length
            ? h("ul", { class: "games", "aria-label": "Your games" }, games.map((g) => inboxItem(g, me, rematches)))
            : h("p", { class: "muted" }, "No games yet: start one, or join one below."),
        );
      drawList();
      lookUpRematches(games).catch((error) => ui.showError(error));
    }
    // After the first inbox answer, so that games we already sit in are not offered again.
    if (!openLoaded) {
      openLoaded = true;
      loadOpen().catch((error) => ui.showError(error));
    }
    return wait;
  });

  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  refresh.addEventListener("click", () => act(refresh, loadOpen));
  return [
    title("Your games"),
    h(
      "p",
      {},
      h("a", { class: "button", href: "#/new" }, "New game"),
      h("a", { class: "button secondary", href: "#/account" }, "Your account"),
    ),
    mine,
    h("h2", {}, "Open games"),
    open,
    refresh,
  ];
}
