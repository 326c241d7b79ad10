// Screens and routing: register, inbox, create, join, and the game (see game.js).

import { Api, apiBase } from "./api.js";
import { h, replace } from "./dom.js";
import { Poller } from "./poller.js";
import { gameScreen } from "./game.js";

const api = new Api(apiBase());
const main = document.getElementById("main");
const errorBox = document.getElementById("error");
const noticeBox = document.getElementById("notice");
let current = null; // the screen's poller, stopped on navigation

export const ui = {
  api,
  main,
  showError(error) {
    errorBox.textContent = error ? error.message || String(error) : "";
    errorBox.hidden = !error;
  },
  notify(text) {
    noticeBox.textContent = text || "";
    noticeBox.hidden = !text;
  },
  go(hash) {
    if (window.location.hash === hash) route();
    else window.location.hash = hash;
  },
  poll(tick) {
    current = new Poller(tick, (error) => ui.showError(error));
    current.start();
    return current;
  },
  // A link that opens this client (with the same ?api=) on another route.
  link(hash) {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${hash}`;
  },
};

// Runs a button's action, disabling the form meanwhile and showing the problem's detail on failure.
export async function act(button, action) {
  const form = button.form || button.closest("form") || button;
  const controls = form.querySelectorAll ? form.querySelectorAll("button, input, select, textarea") : [];
  ui.showError(null);
  for (const c of controls) c.disabled = true;
  button.disabled = true;
  try {
    return await action();
  } catch (error) {
    ui.showError(error);
    return undefined;
  } finally {
    for (const c of controls) c.disabled = false;
    button.disabled = false;
  }
}

function title(text) {
  document.title = `${text} · Dixit by mail`;
  return h("h1", {}, text);
}

function showWho() {
  const who = document.getElementById("who");
  const me = api.me;
  replace(
    who,
    me && api.token
      ? [
          h("span", {}, me.name),
          " ",
          h(
            "button",
            {
              class: "link",
              type: "button",
              onclick: () => {
                if (window.confirm("Forget this player on this device? Keep your token to come back.")) {
                  api.forget();
                  ui.go("#/");
                }
              },
            },
            "Sign out",
          ),
        ]
      : [],
  );
}

function registerScreen(next) {
  const name = h("input", {
    id: "name",
    name: "name",
    required: true,
    maxlength: 40,
    autocomplete: "nickname",
    placeholder: "Ada",
  });
  const token = h("input", { id: "token", name: "token", autocomplete: "off", spellcheck: false });
  const start = h("button", { type: "submit" }, "Start playing");
  const useToken = h("button", { type: "submit", class: "secondary" }, "Use this token");
  return [
    title("Welcome"),
    h("p", {}, "Dixit, played at your own pace: one move when it is your turn, from any phone."),
    h(
      "form",
      {
        class: "card-box",
        onsubmit: (event) => {
          event.preventDefault();
          act(start, async () => {
            await api.register(name.value.trim());
            ui.go(next);
          });
        },
      },
      h("label", { for: "name" }, "Your name, as other players will see it"),
      name,
      start,
    ),
    h(
      "details",
      {},
      h("summary", {}, "Already playing on another device?"),
      h(
        "form",
        {
          onsubmit: (event) => {
            event.preventDefault();
            act(useToken, async () => {
              await api.useToken(token.value.trim());
              ui.go(next);
            });
          },
        },
        h("label", { for: "token" }, "Your token (from that device's “Your token” in the inbox)"),
        token,
        useToken,
      ),
    ),
  ];
}

const PHASE_WORDS = {
  lobby: "In the lobby",
  storytelling: "Storyteller's turn",
  submitting: "Choosing cards",
  voting: "Voting",
  finished: "Finished",
};

function inboxItem(game) {
  const seats = typeof game.players === "number" ? game.players : (game.players?.length ?? game.player_count);
  const waiting = game.waiting_for?.length ?? 0;
  const status = game.your_turn
    ? "Your turn"
    : game.phase === "finished"
      ? "Game over"
      : game.phase === "lobby"
        ? "Waiting to start"
        : waiting
          ? `Waiting for ${waiting} player${waiting === 1 ? "" : "s"}`
          : PHASE_WORDS[game.phase] || game.phase;
  return h(
    "li",
    {},
    h(
      "a",
      { class: `game-link${game.your_turn ? " urgent" : ""}`, href: `#/game/${game.game_id}` },
      h("strong", {}, status),
      h(
        "span",
        { class: "muted" },
        [
          PHASE_WORDS[game.phase] || game.phase,
          game.round_number ? `round ${game.round_number}` : null,
          seats ? `${seats} players` : null,
        ]
          .filter(Boolean)
          .join(" · "),
      ),
      h("span", { class: "muted small" }, `Game ${game.game_id.slice(0, 8)}`),
    ),
  );
}

function inboxScreen() {
  const mine = h("div", { id: "my-games" }, h("p", { class: "muted" }, "Loading your games…"));
  const open = h("div", { id: "open-games" });
  let memberOf = new Set();
  let openLoaded = false;
  let drawn = false;
  const loadOpen = async () => {
    const { games } = await api.get("/games?status=open");
    const joinable = games.filter((g) => !memberOf.has(g.game_id));
    replace(
      open,
      joinable.length
        ? h(
            "ul",
            { class: "games" },
            joinable.map((g) =>
              h(
                "li",
                {},
                h(
                  "a",
                  { class: "game-link", href: `#/join/${g.game_id}` },
                  h("strong", {}, `${g.rules} · ${g.player_count}/${g.max_players} seats taken`),
                  h("span", { class: "muted" }, (g.player_names || []).join(", ")),
                ),
              ),
            ),
          )
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
      // The API sorts by urgency; "your turn" first is the one order this screen promises.
      const games = all.sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
      replace(
        mine,
        games.length
          ? h("ul", { class: "games", "aria-label": "Your games" }, games.map(inboxItem))
          : h("p", { class: "muted" }, "No games yet: start one, or join one below."),
      );
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
    h("p", {}, h("a", { class: "button", href: "#/new" }, "New game")),
    mine,
    h("h2", {}, "Open games"),
    open,
    refresh,
    h(
      "details",
      { class: "token" },
      h("summary", {}, "Your token"),
      h("p", { class: "small" }, "Keep it to play from another device. Anyone with it plays as you."),
      h("code", { class: "break" }, api.token),
    ),
  ];
}

function createScreen() {
  const form = h(
    "form",
    { class: "card-box", id: "create" },
    h(
      "fieldset",
      {},
      h("legend", {}, "Rules"),
      h(
        "label",
        { class: "choice" },
        h("input", { type: "radio", name: "rules", value: "classic", checked: true }),
        " Classic (3–6 players)",
      ),
      h(
        "label",
        { class: "choice" },
        h("input", { type: "radio", name: "rules", value: "odyssey" }),
        " Odyssey (3–12 players)",
      ),
    ),
    h("label", { for: "target" }, "Play until someone reaches"),
    h(
      "div",
      { class: "row" },
      h("input", { id: "target", name: "target_score", type: "number", min: 1, max: 100, value: 30 }),
      h("span", {}, "points"),
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Who can join"),
      h(
        "label",
        { class: "choice" },
        h("input", { type: "radio", name: "visibility", value: "private", checked: true }),
        " Only people I send the invite link to",
      ),
      h(
        "label",
        { class: "choice" },
        h("input", { type: "radio", name: "visibility", value: "public" }),
        " Anyone (listed in open games)",
      ),
    ),
    h("button", { type: "submit" }, "Create game"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    act(event.submitter || form.querySelector("button"), async () => {
      const game = await api.move("/games", {
        rules: data.get("rules"),
        target_score: Number(data.get("target_score")),
        visibility: data.get("visibility"),
      });
      ui.go(`#/game/${game.game_id}`);
    });
  });
  return [title("New game"), form, h("p", {}, h("a", { href: "#/" }, "Back to your games"))];
}

function joinScreen(gameId, code) {
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

function route() {
  current?.stop();
  current = null;
  ui.showError(null);
  ui.notify(null);
  showWho();
  const hash = window.location.hash || "#/";
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  let screen;
  if (!api.token) screen = registerScreen(hash);
  else if (parts[0] === "new") screen = createScreen();
  else if (parts[0] === "join" && parts[1]) screen = joinScreen(parts[1], parts[2]);
  else if (parts[0] === "game" && parts[1]) screen = gameScreen(parts[1], ui, act, title);
  else screen = inboxScreen();
  replace(main, screen);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", route);
route();
