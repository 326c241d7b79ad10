// The new-game form's rules, without a DOM: the body it sends, its defaults in one line each, and the
// Idempotency-Key that makes a second tap (or Back and a second tap) answer with the same game.

export const MAX_SEATS = { classic: 6, odyssey: 12 };

export const DEFAULTS = {
  title: "Optional. Without one, your games list names this game by its players.",
  decks: "Default: the base deck. Mix decks for more variety; your own decks show here once every card is ready.",
  seats: "Default: as many as the rules allow (6 classic, 12 Odyssey). The game starts when the host says so.",
  target: "Default: 30 points, a game of a few weeks by mail. Fewer points, a shorter game.",
  timeout: "Default: 48 hours per move. Then a random card or vote is played for a silent player, scoring nothing.",
  visibility: "Default: private. Only people with the invite link can join.",
};

const number = (text) => (text === null || text === undefined || String(text).trim() === "" ? null : Number(text));

// The body of POST /games from the form's values (a FormData-like getter and the chosen decks).
export function createBody(get, decks) {
  const rules = get("rules") || "classic";
  const body = {
    rules,
    target_score: number(get("target_score")) ?? 30,
    visibility: get("visibility") || "private",
    timeout_policy: get("timeout_policy") || "autoplay",
    move_timeout_hours: number(get("move_timeout_hours")) ?? 48,
    decks: decks.length ? decks : ["base"],
  };
  const seats = number(get("max_players"));
  if (seats !== null) body.max_players = Math.min(seats, MAX_SEATS[rules]);
  const title = String(get("title") || "").trim();
  if (title) body.title = title;
  return body;
}

// One key per filled form, kept for the tab's life: a repeat of the same form is the same request, so the
// API answers with the game it made the first time. A changed form is a new request with a new key.
export function formKey(storage, body, newKey) {
  const text = JSON.stringify(body);
  try {
    const kept = JSON.parse(storage.getItem("dixit:create") || "null");
    if (kept && kept.body === text) return kept.key;
  } catch {
    // A damaged entry: start afresh.
  }
  const key = newKey();
  storage.setItem("dixit:create", JSON.stringify({ body: text, key }));
  return key;
}
