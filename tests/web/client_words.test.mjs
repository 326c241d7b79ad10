// The games list, the join preview, the new-game form and the client's words (web/inbox_state.js,
// join_state.js, create_state.js, words.js), without a browser.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as create from "../../web/create_state.js";
import * as inbox from "../../web/inbox_state.js";
import * as join from "../../web/join_state.js";
import * as words from "../../web/words.js";

const seated = [
  { player_id: "p-ada", name: "Ada" },
  { player_id: "p-bob", name: "Bob" },
  { player_id: "p-cy", name: "Cy" },
];
const entry = (over = {}) => ({ game_id: "g_53293d0011", phase: "submitting", seated, host_id: "p-ada", ...over });

describe("the games list", () => {
  test("a game is named by its title, else by its players with you first, never by its id", () => {
    assert.equal(inbox.gameName(entry({ title: "Friday" }), "p-bob"), "Friday");
    assert.equal(inbox.gameName(entry(), "p-bob"), "You, Ada and Cy");
    assert.equal(inbox.gameName(entry({ seated: undefined }), "p-bob"), "Game g_53293d");
    assert.equal(inbox.playersLine(entry({ title: "Friday" }), "p-bob"), "With Ada and Cy");
    assert.equal(inbox.playersLine(entry(), "p-bob"), null);
  });

  test("untitled games are told apart by their host and their last change; titled ones need not be", () => {
    const lobby = entry({ phase: "lobby", updated_at: "2026-12-01T10:00:00Z" });
    assert.match(inbox.inboxOrigin(lobby, "p-bob"), /^Hosted by Ada · last change /);
    assert.match(inbox.inboxOrigin(lobby, "p-ada"), /^Hosted by you/);
    assert.equal(inbox.inboxOrigin(entry({ title: "Friday" }), "p-bob"), null);
  });

  test("whose move it is, in names", () => {
    const waiting = [{ player_id: "p-cy", name: "Cy", move: "submit" }];
    assert.equal(inbox.inboxStatus(entry({ waiting }), "p-bob"), "Waiting for Cy");
    const mine = [{ player_id: "p-bob", name: "Bob", move: "vote" }];
    assert.equal(inbox.inboxStatus(entry({ your_turn: true, waiting: mine }), "p-bob"), "Your turn: vote");
    assert.equal(inbox.inboxStatus(entry({ phase: "lobby" }), "p-bob"), "Waiting for the host to start");
    assert.equal(inbox.inboxStatus(entry({ phase: "lobby", your_turn: true }), "p-ada"), "Your turn: start the game");
  });

  test("a finished game names its winner", () => {
    assert.equal(inbox.inboxStatus(entry({ phase: "finished", winners: ["p-cy"] }), "p-bob"), "Game over: Cy won");
    assert.equal(inbox.inboxStatus(entry({ phase: "finished", winners: ["p-bob"] }), "p-bob"), "Game over: you won!");
    const shared = entry({ phase: "finished", winners: ["p-ada", "p-cy"] });
    assert.equal(inbox.inboxStatus(shared, "p-bob"), "Game over: Ada and Cy shared the win");
  });

  test("the told clue and the round; the storyteller's own clue is 'your clue'", () => {
    const told = entry({ round_number: 2, clue: "a door", storyteller_id: "p-ada" });
    assert.equal(inbox.inboxFacts(told, "p-bob"), "Round 2 · Ada's clue “a door”");
    assert.equal(inbox.inboxFacts(told, "p-ada"), "Round 2 · your clue “a door”");
    const telling = entry({ phase: "storytelling", round_number: 1, storyteller_id: "p-cy" });
    assert.equal(inbox.inboxFacts(telling, "p-bob"), "Round 1 · Cy tells the story");
  });

  test("the deadline of one's own move, in one's own time; your-turn games first; a count for the tab", () => {
    assert.match(inbox.inboxDeadline({ your_turn: true, deadline: "2030-05-01T12:00:00Z" }), /^Please move by .*2030/);
    assert.equal(inbox.inboxDeadline({ your_turn: false, deadline: "2030-05-01T12:00:00Z" }), null);
    const games = ["a", "b", "c"].map((game_id) => ({ game_id, your_turn: game_id === "c" }));
    assert.deepEqual(inbox.inboxOrder(games).map((g) => g.game_id), ["c", "a", "b"]);
    assert.equal(inbox.yourTurnCount(games), 1);
    assert.equal(inbox.tabTitle(2), "(2) Your games · Dixit by mail");
    assert.equal(inbox.tabTitle(0), "Your games · Dixit by mail");
  });
});

describe("the join preview", () => {
  const preview = (over = {}) => ({
    phase: "lobby",
    host_name: "Ada",
    seated: seated.slice(0, 2),
    free_seats: 4,
    settings: { rules: "classic", max_players: 6, target_score: 30, move_timeout_hours: 48, timeout_policy: "skip" },
    ...over,
  });

  test("the facts: host, players, rules, target and free seats", () => {
    const facts = Object.fromEntries(join.previewFacts(preview()));
    assert.equal(facts.Host, "Ada");
    assert.equal(facts.Players, "Ada and Bob (2 of 6)");
    assert.equal(facts.Rules, "Classic (3–6 players)");
    assert.equal(facts["Play until"], "someone reaches 30 points");
    assert.equal(facts["Free seats"], "4");
    assert.equal(facts["Each move"], "48 hours; then a silent player is skipped");
  });

  test("names each timeout policy, autoplay (the API's default) included", () => {
    const each = (policy) => Object.fromEntries(join.previewFacts(preview({ settings: { ...preview().settings, timeout_policy: policy } })))["Each move"];
    assert.match(each("autoplay"), /random card or vote is played for a silent player, scoring nothing/);
    assert.match(each("wait"), /the game waits, with reminders/);
  });

  test("says plainly when the game is full or started", () => {
    assert.equal(join.previewVerdict(preview()).joinable, true);
    assert.deepEqual(join.previewVerdict(preview({ free_seats: 0 })), { joinable: false, text: "This game is full: every seat is taken." });
    assert.match(join.previewVerdict(preview({ phase: "voting" })).text, /already started/);
    assert.match(join.previewVerdict(preview({ phase: "finished" })).text, /over/);
  });

  test("seats are counted only where one can be taken: a started or finished game shows no free seats", () => {
    for (const phase of ["voting", "finished"]) {
      const facts = Object.fromEntries(join.previewFacts(preview({ phase, free_seats: 2 })));
      assert.equal(facts["Free seats"], undefined, phase);
      assert.equal(facts["Offered seats"], undefined, phase);
    }
  });

  test("a game under way with an offered seat can be joined, and says it takes the seat", () => {
    const offered = preview({ phase: "voting", offered_seats: 1, free_seats: 2 });
    const verdict = join.previewVerdict(offered);
    assert.equal(verdict.joinable, true);
    assert.equal(verdict.seat, true);
    assert.match(verdict.text, /offers a seat.*cards, its score/);
    assert.deepEqual(join.previewFacts(offered).at(-1), ["Offered seats", "1"]);
  });
});

describe("the new-game form", () => {
  const values = (v) => (name) => v[name] ?? null;

  test("sends what was chosen, seats capped by the rules, and a title only when given", () => {
    const body = create.createBody(values({ rules: "classic", target_score: "12", max_players: "9", title: " Fri " }), ["base", "mirrors"]);
    assert.deepEqual(body, {
      rules: "classic",
      target_score: 12,
      visibility: "private",
      timeout_policy: "autoplay",
      move_timeout_hours: 48,
      decks: ["base", "mirrors"],
      max_players: 6,
      title: "Fri",
    });
    assert.equal("title" in create.createBody(values({}), []), false);
    assert.deepEqual(create.createBody(values({}), []).decks, ["base"]);
  });

  test("the same filled form keeps its Idempotency-Key, a changed one gets a new key", () => {
    const store = new Map();
    const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
    let n = 0;
    const fresh = () => `key-${(n += 1)}`;
    const body = { rules: "classic" };
    const first = create.formKey(storage, body, fresh);
    assert.equal(create.formKey(storage, { rules: "classic" }, fresh), first);
    assert.notEqual(create.formKey(storage, { rules: "odyssey" }, fresh), first);
  });

  test("every default is explained in one line", () => {
    for (const line of Object.values(create.DEFAULTS)) assert.doesNotMatch(line, /\n/);
  });
});

describe("the client's words", () => {
  test("a move is acknowledged in words", () => {
    assert.equal(words.ackText("clue", { clue: "a door" }), "Your clue is told: “a door”. The others now choose cards that fit it.");
    assert.match(words.ackText("submit", { card_ids: ["a", "b"] }), /^Your 2 cards are on the table/);
    assert.match(words.ackText("submit", { card_ids: ["a"] }), /^Your card is on the table/);
    assert.equal(words.ackText("vote", { card_ids: ["a"] }, { phase: "voting" }), "Your vote is in. The reveal comes once everyone has voted.");
  });

  test("an acknowledgement follows the phase the move left the game in", () => {
    assert.match(words.ackText("submit", { card_ids: ["a"] }, { phase: "submitting" }), /votes come once everyone has played/);
    assert.equal(
      words.ackText("submit", { card_ids: ["a"] }, { phase: "voting" }),
      "Your card is on the table, face down. Everyone has played: the vote is open.",
    );
    assert.equal(words.ackText("vote", { card_ids: ["a"] }, { phase: "storytelling" }), "Your vote is in. Everyone has voted: here is the reveal.");
    assert.equal(words.ackText("vote", { card_ids: ["a"] }, { phase: "finished" }), "Your vote is in. That was the last vote: the game is over.");
  });

  test("the clue counter counts characters and says so at the limit", () => {
    assert.deepEqual(words.clueCounter("door"), { text: "4 of 200 characters", full: false });
    assert.equal(words.clueCounter("x".repeat(200)).full, true);
    assert.match(words.clueCounter("x".repeat(200)).text, /as long as a clue can be/);
    assert.equal(words.clueCounter("😀😀").text, "2 of 200 characters");
  });

  test("a card's alt is the API's description; without one it says so instead of passing a place off as one", () => {
    assert.equal(words.cardAlt({ alt: "a lighthouse under a crescent moon" }, "table card 2"), "a lighthouse under a crescent moon");
    assert.equal(words.cardAlt({}, "table card 2"), "A card with no description (table card 2)");
  });

  test("a refused nudge says how long to wait, in words", () => {
    assert.equal(words.waitWords(30), "30 seconds");
    assert.equal(words.waitWords(600), "10 minutes");
    assert.equal(words.waitWords(7200), "2 hours");
    const refused = { status: 429, code: "nudge_too_soon", retryAfter: 3600, message: "x" };
    assert.equal(words.nudgeRefusal(refused), "The players were reminded a short while ago. You can nudge again in 1 hour.");
    assert.equal(words.nudgeWords({ nudged: ["p-cy"] }, () => "Cy"), "Reminded Cy.");
    const names = { "p-cy": "Cy", "p-emil": "Emil" };
    assert.equal(
      words.nudgeWords({ nudged: ["p-cy", "p-emil"], unreachable: ["p-emil"] }, (id) => names[id]),
      "Reminded Cy. Emil has no way to be reached; they will see it when they open the game.",
    );
    assert.equal(
      words.nudgeWords({ nudged: ["p-cy", "p-emil"], unreachable: ["p-cy", "p-emil"] }, (id) => names[id]),
      "Cy and Emil have no way to be reached; they will see it when they open the game.",
    );
  });

  test("a known problem code in human words, an unknown one as the API's detail made a sentence", () => {
    assert.equal(words.problemWords("game_full", "the game is full"), "This game is full: every seat is taken.");
    assert.equal(words.problemWords("something_new", "the thing broke"), "The thing broke.");
  });
});
