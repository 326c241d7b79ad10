// A new game: a title, the rules and seats, the decks, the target score, the timeout and who can join,
// each with its default in one line. Create sends one Idempotency-Key per filled form (create_state.js),
// and the form's place in the history is taken by the game, so Back cannot reopen it to create another.

import { newKey } from "../api.js";
import { createBody, DEFAULTS, formKey, MAX_SEATS } from "../create_state.js";
import { h, replace } from "../dom.js";
import { act, title, ui } from "../ui.js";

const OWN_DECKS = "dixit:own-decks";

function choice(name, value, text, checked = false, type = "radio") {
  return h("label", { class: "choice" }, h("input", { type, name, value, checked }), text);
}

const hint = (id, text) => h("p", { class: "small muted hint", id }, text);

function field(id, label, input, hintText) {
  input.setAttribute("aria-describedby", `${id}-hint`);
  return [h("label", { for: id }, label), input, hint(`${id}-hint`, hintText)];
}

const ownChoice = (d, checked = false) =>
  choice("decks", d.deck_id, ` ${d.name} (your deck, ${d.card_count} cards)`, checked, "checkbox");

const remembered = () => JSON.parse(localStorage.getItem(OWN_DECKS) || "[]");

// One of the player's own decks, by id: offered only once every card of it is ready.
async function ownDeck(api, id) {
  const deck = await api.call("GET", `/decks/${encodeURIComponent(id)}`);
  if (deck.official) throw new Error("That is one of the official decks: it is listed above.");
  if (!deck.ready) throw new Error(`“${deck.name}” is not ready yet: some of its cards are still being checked.`);
  return deck;
}

// The official decks, then the own decks this device has used before that are ready.
async function loadDecks(box, api) {
  const listed = (await api.call("GET", "/decks", undefined, { auth: false })).decks;
  const own = [];
  for (const id of remembered()) {
    try {
      own.push(await ownDeck(api, id));
    } catch {
      // Gone, not ready or not ours any more: not offered.
    }
  }
  replace(
    box,
    listed.map((d) => choice("decks", d.deck_id, ` ${d.name} (${d.card_count} cards)`, d.deck_id === "base", "checkbox")),
    own.map((d) => ownChoice(d)),
  );
}

// "Add your own deck": its id (from POST /decks) adds it to the choices, and this device remembers it.
function ownDeckAdder(box, api) {
  const input = h("input", { id: "own-deck", autocomplete: "off", spellcheck: false, "aria-describedby": "own-deck-hint" });
  const add = h("button", { type: "button", class: "secondary", id: "add-deck" }, "Add");
  // Enter in this field adds the deck; it must not create the game.
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    add.click();
  });
  add.addEventListener("click", () =>
    act(add, async () => {
      const id = input.value.trim();
      if (!id) return;
      const deck = await ownDeck(api, id);
      if (!box.querySelector(`input[value="${CSS.escape(deck.deck_id)}"]`)) box.append(ownChoice(deck, true));
      localStorage.setItem(OWN_DECKS, JSON.stringify([...new Set([...remembered(), deck.deck_id])]));
      input.value = "";
    }),
  );
  return [
    h("label", { for: "own-deck" }, "Add your own deck (its id)"),
    h("div", { class: "row" }, input, add),
    hint("own-deck-hint", "A deck you made with POST /decks, once every card is ready."),
  ];
}

export function createScreen() {
  const { api } = ui;
  const decks = h("div", { id: "decks" }, h("p", { class: "muted small" }, "Loading the decks…"));
  loadDecks(decks, api).catch(() =>
    replace(decks, choice("decks", "base", " Dixit (the base deck)", true, "checkbox")),
  );
  const seats = h("input", { id: "seats", name: "max_players", type: "number", min: 3, max: 6, placeholder: "6" });
  const form = h(
    "form",
    { class: "card-box", id: "create" },
    field("title", "Title", h("input", { id: "title", name: "title", maxlength: 40, autocomplete: "off" }), DEFAULTS.title),
    h(
      "fieldset",
      {},
      h("legend", {}, "Rules"),
      choice("rules", "classic", " Classic (3–6 players)", true),
      choice("rules", "odyssey", " Odyssey (3–12 players)"),
    ),
    field("seats", "Seats", seats, DEFAULTS.seats),
    h(
      "fieldset",
      { "aria-describedby": "decks-hint" },
      h("legend", {}, "Decks"),
      decks,
      hint("decks-hint", DEFAULTS.decks),
      ownDeckAdder(decks, api),
    ),
    field(
      "target",
      "Play until someone reaches (points)",
      h("input", { id: "target", name: "target_score", type: "number", min: 1, max: 200, value: 30 }),
      DEFAULTS.target,
    ),
    field(
      "timeout",
      "Hours for each move",
      h("input", { id: "timeout", name: "move_timeout_hours", type: "number", min: 1, max: 336, value: 48 }),
      DEFAULTS.timeout,
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "When a player does not move in time"),
      choice("timeout_policy", "autoplay", " Play a random card or vote for them (it scores nothing)", true),
      choice("timeout_policy", "skip", " Skip them, so the game goes on"),
      choice("timeout_policy", "wait", " Wait for them, with reminders"),
    ),
    h(
      "fieldset",
      { "aria-describedby": "visibility-hint" },
      h("legend", {}, "Who can join"),
      choice("visibility", "private", " Only people I send the invite link to", true),
      choice("visibility", "public", " Anyone (listed in open games)"),
      hint("visibility-hint", DEFAULTS.visibility),
    ),
    h("button", { type: "submit", id: "create-game" }, "Create game"),
  );
  form.addEventListener("change", (event) => {
    if (event.target.name !== "rules") return;
    seats.max = MAX_SEATS[event.target.value];
    seats.placeholder = String(MAX_SEATS[event.target.value]);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = createBody((name) => data.get(name), data.getAll("decks"));
    const key = formKey(sessionStorage, body, newKey);
    act(event.submitter || form.querySelector("button[type=submit]"), async () => {
      const game = await api.move("/games", body, key);
      ui.go(`#/game/${game.game_id}`, "Your game is created. Share the invite link below.", { replace: true });
    });
  });
  return [title("New game"), form, h("p", {}, h("a", { href: "#/" }, "Back to your games"))];
}
