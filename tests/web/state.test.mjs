// The web client's pure state module (web/state.js), under `node --test tests/web/`: no browser, no DOM.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as state from "../../web/state.js";

const ids = ["p-ada", "p-bob", "p-cy", "p-dee", "p-eve", "p-fay", "p-gus"];
const names = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"];

// A game as the API shows it to Ada (seat 0, the host), before any `you.owes` is planned.
function game({ seats = 3, phase = "submitting", rules = "classic", waiting = ids.slice(1, seats), ...rest } = {}) {
  const players = ids.slice(0, seats).map((player_id, i) => ({ player_id, name: names[i], score: i * 4 }));
  return {
    game_id: "g-1",
    version: 7,
    phase,
    host_id: "p-ada",
    players,
    settings: { rules, target_score: 10, decks: ["base"] },
    round: phase === "lobby" || phase === "finished" ? null : { number: 2, storyteller_id: "p-bob", waiting_for: waiting },
    you: { player_id: "p-ada", hand: [] },
    ...rest,
  };
}

const result = {
  number: 1,
  storyteller_id: "p-bob",
  clue: "the door",
  storyteller_card: "c-2",
  cards: [
    { card_id: "c-1", owner_id: "p-ada", voter_ids: ["p-cy"] },
    { card_id: "c-2", owner_id: "p-bob", voter_ids: ["p-ada"] },
    { card_id: "c-3", owner_id: "p-cy", voter_ids: [] },
  ],
  points: { "p-ada": 3, "p-bob": 3, "p-cy": 1 },
};

describe("owesOf", () => {
  test("a planned you.owes is taken as it is, a planned nothing too", () => {
    const owes = { move: "vote", counts: [1], deadline: "2030-01-01T00:00:00Z" };
    assert.deepEqual(state.owesOf(game({ you: { player_id: "p-ada", owes } })), owes);
    assert.equal(state.owesOf(game({ waiting: ["p-ada"], you: { player_id: "p-ada", owes: null } })), null);
  });

  test("the storyteller owes one clue", () => {
    assert.deepEqual(state.owesOf(game({ phase: "storytelling", waiting: ["p-ada"] })), { move: "clue", count: 1 });
  });

  test("with 3 players each submits 2 cards, with more players 1", () => {
    assert.deepEqual(state.owesOf(game({ seats: 3, waiting: ["p-ada", "p-cy"] })), { move: "submit", count: 2 });
    assert.deepEqual(state.owesOf(game({ seats: 4, waiting: ["p-ada"] })), { move: "submit", count: 1 });
  });

  test("the round's cards_to_submit wins over the seat count", () => {
    const g = game({ seats: 3, waiting: ["p-ada"] });
    g.round.cards_to_submit = 1;
    assert.deepEqual(state.owesOf(g), { move: "submit", count: 1 });
  });

  test("a classic vote takes one card; an Odyssey vote with 7 or more players one or two", () => {
    const voting = { phase: "voting", waiting: ["p-ada"] };
    assert.deepEqual(state.owesOf(game({ ...voting, seats: 7 })), { move: "vote", counts: [1] });
    assert.deepEqual(state.owesOf(game({ ...voting, seats: 7, rules: "odyssey" })), { move: "vote", counts: [1, 2] });
    assert.deepEqual(state.owesOf(game({ ...voting, seats: 6, rules: "odyssey" })), { move: "vote", counts: [1] });
  });

  test("the round's votes_allowed wins, a single number read as one count", () => {
    const g = game({ phase: "voting", waiting: ["p-ada"] });
    g.round.votes_allowed = 2;
    assert.deepEqual(state.owesOf(g), { move: "vote", counts: [2] });
    g.round.votes_allowed = [1, 2];
    assert.deepEqual(state.owesOf(g), { move: "vote", counts: [1, 2] });
  });

  test("waiting_for may list objects; nothing is owed by whoever it does not list", () => {
    assert.deepEqual(state.owesOf(game({ seats: 4, waiting: [{ player_id: "p-ada", move: "submit" }] })), {
      move: "submit",
      count: 1,
    });
    assert.equal(state.owesOf(game({ waiting: ["p-cy"] })), null);
    assert.equal(state.owesOf(game({ waiting: ["p-ada"], you: undefined })), null);
    assert.equal(state.owesOf(game({ phase: "finished" })), null);
  });
});

test("countsOf reads a count or the allowed counts, and nothing owed as none", () => {
  assert.deepEqual(state.countsOf({ move: "submit", count: 2 }), [2]);
  assert.deepEqual(state.countsOf({ move: "vote", counts: [1, 2] }), [1, 2]);
  assert.deepEqual(state.countsOf({ move: "clue" }), [1]);
  assert.deepEqual(state.countsOf(null), []);
});

describe("the draft", () => {
  test("a new step of the round starts from an empty draft; the same step keeps it", () => {
    const g = game();
    const draft = state.draftFor(state.emptyDraft(), g);
    assert.deepEqual(draft, { key: "2:submitting", chosen: [], clue: "" });
    const picked = state.withChosen(draft, "c-1", 2);
    assert.equal(state.draftFor(picked, g), picked);
    assert.deepEqual(state.draftFor(picked, { ...g, phase: "voting" }), { key: "2:voting", chosen: [], clue: "" });
  });

  test("choosing toggles a card, and one too many lets go of the oldest", () => {
    const d0 = state.emptyDraft("k");
    const d1 = state.withChosen(d0, "a", 2);
    const d2 = state.withChosen(d1, "b", 2);
    assert.deepEqual(d2.chosen, ["a", "b"]);
    assert.deepEqual(state.withChosen(d2, "c", 2).chosen, ["b", "c"]);
    assert.deepEqual(state.withChosen(d2, "a", 2).chosen, ["b"]);
    assert.deepEqual(state.withChosen(d1, "b", 1).chosen, ["b"]);
    assert.deepEqual(d0.chosen, [], "the old draft is left as it was");
    assert.deepEqual(d1.chosen, ["a"]);
  });

  test("a clue is ready with one card and words that are not only spaces", () => {
    const one = state.withChosen(state.emptyDraft("k"), "a", 1);
    assert.equal(state.clueReady(state.withClue(one, "  the door ")), true);
    assert.equal(state.clueReady(state.withClue(one, "   ")), false);
    assert.equal(state.clueReady(state.withClue(state.emptyDraft("k"), "the door")), false);
    assert.deepEqual(state.clueMove(state.withClue(one, "  the door ")), { card_id: "a", clue: "the door" });
  });

  test("a submission needs exactly the count; a vote any allowed count", () => {
    const two = state.withChosen(state.withChosen(state.emptyDraft("k"), "a", 2), "b", 2);
    assert.equal(state.submitReady(two, 2), true);
    assert.equal(state.submitReady(two, 1), false);
    assert.equal(state.voteReady(two, [1, 2]), true);
    assert.equal(state.voteReady(two, [1]), false);
    assert.equal(state.voteReady(state.emptyDraft("k"), [1, 2]), false);
    assert.deepEqual(state.cardsMove(two), { card_ids: ["a", "b"] });
  });

  test("a sent draft keeps its step and forgets its picks", () => {
    const d = state.withClue(state.withChosen(state.emptyDraft("k"), "a", 1), "x");
    assert.deepEqual(state.sent(d), { key: "k", chosen: [], clue: "" });
  });
});

describe("the game screen", () => {
  test("the heading names the round except in the lobby and at the end", () => {
    assert.equal(state.headingOf(game({ phase: "voting" })), "Round 2 · Voting");
    assert.equal(state.headingOf(game({ phase: "lobby" })), "Lobby");
    assert.equal(state.headingOf(game({ phase: "finished" })), "Game over");
  });

  test("the game's name heads its screens: its title, else its players with you first", () => {
    const g = game({ phase: "voting" });
    assert.equal(state.gameNameOf({ ...g, settings: { ...g.settings, title: "Long table" } }), "Long table");
    const names = g.players.filter((p) => p.player_id !== g.you.player_id).map((p) => p.name);
    assert.equal(state.gameNameOf({ ...g, settings: { ...g.settings, title: null } }), ["You", ...names].join(", ").replace(/, ([^,]*)$/, " and $1"));
    assert.notEqual(state.stepOf(game({ phase: "voting" })), state.stepOf(game({ phase: "finished" })));
  });

  test("a fresh reveal goes first at a round's first step, else after the scores", () => {
    const last_round = result;
    assert.deepEqual(state.sectionsOf(game({ phase: "lobby" })), ["lobby", "scores"]);
    assert.deepEqual(state.sectionsOf(game({ phase: "storytelling" })), ["status", "panel", "scores", "table", "history"]);
    assert.deepEqual(state.sectionsOf(game({ phase: "storytelling", last_round })), [
      "status",
      "reveal",
      "panel",
      "scores",
      "table",
      "history",
    ]);
    assert.deepEqual(state.sectionsOf(game({ phase: "voting", last_round })), [
      "status",
      "panel",
      "scores",
      "table",
      "reveal",
      "history",
    ]);
    assert.deepEqual(state.sectionsOf(game({ phase: "finished", last_round })), ["ending", "reveal", "scores", "history"]);
  });

  test("the panel follows the owed move, else the phase", () => {
    const g = game({ phase: "voting" });
    assert.equal(state.panelOf(g, { move: "clue" }), "clue");
    assert.equal(state.panelOf(g, { move: "submit", count: 1 }), "submit");
    assert.equal(state.panelOf(g, null), "vote");
    assert.equal(state.panelOf(game({ phase: "submitting" }), null), "hand");
    assert.equal(state.panelOf(game({ you: undefined }), null), "watching");
  });

  test("the status says what to do, or whom the round waits for (never 'you')", () => {
    const g = game({ seats: 4, waiting: ["p-ada", "p-cy", "p-dee"] });
    assert.equal(state.statusText(g, { move: "submit", count: 2 }), "Your turn: choose 2 cards that fit the clue.");
    assert.equal(state.statusText(g, { move: "submit", count: 1 }), "Your turn: choose 1 card that fits the clue.");
    assert.equal(state.statusText(g, { move: "later" }), "Your turn.");
    assert.equal(state.statusText(g, null, state.namer(g).nameOf), "Waiting for Cy and Dee.");
    assert.equal(state.statusText(game({ waiting: ["p-ada"] }), null, String), "Waiting for the other players.");
  });

  test("the clue shows once told; before that the others learn who tells", () => {
    const g = game({ phase: "voting" });
    g.round.clue = "the door";
    assert.deepEqual(state.clueLine(g, null), { teller: "p-bob", clue: "the door" });
    const telling = game({ phase: "storytelling" });
    assert.deepEqual(state.clueLine(telling, null), { teller: "p-bob", clue: null });
    assert.equal(state.clueLine(telling, { move: "clue" }), null);
  });

  test("names: 'you' for oneself, a placeholder for someone who left", () => {
    const { nameOf, NameOf } = state.namer(game());
    assert.equal(nameOf("p-bob"), "Bob");
    assert.equal(nameOf("p-ada"), "you");
    assert.equal(NameOf("p-ada"), "You");
    assert.equal(NameOf("p-zed"), "A player who left");
    assert.equal(state.listOf(["a", "b", "c"]), "a, b and c");
    assert.equal(state.listOf(["a"]), "a");
  });

  test("hints count the chosen cards; table badges mark one's own card and votes", () => {
    const d = state.withChosen(state.emptyDraft("k"), "a", 2);
    assert.equal(state.submitHint(d, 2), "Choose 2 cards (1 chosen). Tap a card to see it big.");
    assert.equal(state.voteHint(d, [1, 2]), "Vote for 1 or 2 cards (1 chosen).");
    assert.equal(state.voteHint(d, [1]), "Tap a card to see it big, then vote for it.");
    const you = { player_id: "p-ada", submitted: ["c-1"], votes: ["c-2"] };
    assert.deepEqual(state.tableBadges(you, "c-1"), ["Your card"]);
    assert.deepEqual(state.tableBadges(you, "c-2"), ["Your vote"]);
    assert.deepEqual(state.tableBadges({}, "c-3"), []);
  });

  test("a reveal says who found the storyteller's card, who voted, and the points", () => {
    const { NameOf } = state.namer(game());
    assert.equal(state.revealSummary(result, NameOf), "You found the storyteller's card.");
    const nobody = { ...result, cards: result.cards.map((c) => ({ ...c, voter_ids: [] })) };
    assert.equal(state.revealSummary(nobody, NameOf), "Nobody found the storyteller's card.");
    const all = { ...result, cards: [{ card_id: "c-2", voter_ids: ["p-ada", "p-cy"] }] };
    assert.equal(state.revealSummary(all, NameOf), "Everybody found the storyteller's card.");
    assert.equal(state.votersText(result.cards[0], NameOf), "Votes: Cy");
    assert.equal(state.votersText(result.cards[2], NameOf), "No votes");
    assert.equal(state.pointsText(result, NameOf), "You +3, Bob +3, Cy +1");
    const listed = { ...result, points: [{ player_id: "p-bob", points: 0 }] };
    assert.deepEqual(state.pointsOf(listed), { "p-bob": 0 });
  });

  test("the scoreboard tags the host, the storyteller and who is to play", () => {
    const board = state.scoreboard(game({ waiting: ["p-cy"] }));
    assert.equal(board.heading, "Scores");
    assert.equal(board.target, 10);
    assert.equal(board.showScores, true);
    assert.deepEqual(
      board.rows.map((r) => [r.name, r.you, r.host, r.storyteller, r.toPlay, r.score, r.meter]),
      [
        ["Ada", true, true, false, false, 0, 0],
        ["Bob", false, false, true, false, 4, 4],
        ["Cy", false, false, false, true, 8, 8],
      ],
    );
    const capped = game({ seats: 4 });
    assert.equal(state.scoreboard(capped).rows[3].meter, 10, "the meter stops at the target");
    const lobby = state.scoreboard(game({ phase: "lobby" }));
    assert.equal(lobby.heading, "Players");
    assert.equal(lobby.showScores, false);
    assert.equal(lobby.rows[1].storyteller, false);
  });

  test("the lobby: the invite route, who may start, and when", () => {
    assert.equal(state.inviteHash("g-1", { invite_code: "a b" }), "#/join/g-1/a%20b");
    assert.equal(state.inviteHash("g-1", {}), "#/join/g-1");
    assert.equal(state.isHost(game()), true);
    assert.equal(state.isHost(game({ you: { player_id: "p-bob" } })), false);
    assert.equal(state.isHost(game({ you: undefined })), false);
  });

  test("leaving asks, naming who becomes host, or that the game closes", () => {
    const three = {
      host_id: "p-ada",
      you: { player_id: "p-ada" },
      players: [
        { player_id: "p-ada", name: "Ada" },
        { player_id: "p-bob", name: "Bob" },
        { player_id: "p-cy", name: "Cy" },
      ],
    };
    assert.match(state.leaveQuestion(three), /You are its host: Bob becomes the host\./);
    assert.doesNotMatch(state.leaveQuestion({ ...three, you: { player_id: "p-cy" } }), /host/);
    const alone = { ...three, players: three.players.slice(0, 1) };
    assert.equal(state.leaveQuestion(alone), "Leave this game? Nobody else has joined: it closes.");
    assert.equal(state.canStart(game({ seats: 3 })), true);
    assert.equal(state.canStart(game({ seats: 2 })), false);
  });

  test("the end names the winners, and why the game ended", () => {
    const { NameOf } = state.namer(game());
    const end = (winners, end_reason) => game({ phase: "finished", winners, end_reason });
    assert.equal(state.winnerText(end(["p-ada"]), NameOf), "You win!");
    assert.equal(state.winnerText(end([{ player_id: "p-bob" }]), NameOf), "Bob wins!");
    assert.equal(state.winnerText(end(["p-bob", "p-cy"]), NameOf), "Bob and Cy share the win!");
    assert.equal(state.winnerText(end([]), NameOf), "The game is over.");
    assert.equal(state.endReasonText(end([], "target_score")), "Someone reached the target score of 10 points.");
    const one = end([], "target_score");
    one.settings = { ...one.settings, target_score: 1 };
    assert.equal(state.endReasonText(one), "Someone reached the target score of 1 point.");
    assert.equal(state.endReasonText(end([], "something_new")), "something_new");
    assert.equal(state.endReasonText(end([])), null);
  });

  test("a deadline is shown in words, and only when there is one", () => {
    const g = game();
    assert.equal(state.deadlineText(g, null), null);
    assert.match(state.deadlineText(g, { deadline: "2030-05-01T12:00:00Z" }), /^Please move by .*2030.*\.$/);
    assert.equal(state.timeText("not a date"), "not a date");
  });
});

describe("what a player reads while they wait", () => {
  test("the storyteller reads 'Your clue', never 'You's clue'", () => {
    const NameOf = (id) => (id === "p-ada" ? "You" : "Bob");
    assert.equal(state.clueLead({ teller: "p-ada", clue: "x" }, "p-ada", NameOf), "Your clue: ");
    assert.equal(state.clueLead({ teller: "p-bob", clue: "x" }, "p-ada", NameOf), "Bob's clue: ");
    assert.equal(state.clueLead({ teller: "p-ada", clue: null }, "p-ada", NameOf), "You are the storyteller.");
    assert.equal(state.clueLead({ teller: "p-bob", clue: null }, "p-ada", NameOf), "Bob is the storyteller.");
  });

  test("'Please move' is said only to the player who owes the move", () => {
    const g = game({ seats: 3, waiting: ["p-cy"] });
    g.round.deadline = "2030-05-01T12:00:00Z";
    const { nameOf } = state.namer(g);
    assert.match(state.deadlineText(g, null, nameOf), /^Cy has until .*2030.* to move\.$/);
    assert.doesNotMatch(state.deadlineText(g, null, nameOf), /Please/);
    const two = game({ seats: 4, waiting: ["p-cy", "p-dee"] });
    two.round.deadline = "2030-05-01T12:00:00Z";
    assert.match(state.deadlineText(two, null, nameOf), /^The others have until/);
  });

  test("what was played is named by its place, the player's own only", () => {
    const table = [{ card_id: "a" }, { card_id: "b" }, { card_id: "c" }];
    assert.equal(state.votedText({ votes: ["c"], submitted: ["a"] }, table), "You voted for table card 3. Your card is table card 1.");
    assert.equal(state.votedText({ votes: [], submitted: [] }, table), null);
    // A seat taken during the round: nothing of it shown, and when the newcomer plays.
    const newcomer = { player_id: "n", votes: [], submitted: [] };
    assert.equal(state.votedText(newcomer, table, ["n"]), "You sit this round out: you play from the next one.");
    assert.equal(state.playedHeading(true, 1), "Your card for the clue");
    assert.equal(state.playedHeading(false, 2), "The 2 cards you played");
  });
});

describe("times in the player's saved zone", () => {
  test("a deadline is told in the zone saved in the settings, else in the browser's", () => {
    const iso = "2026-12-01T23:30:00Z";
    state.useTimeZone("Asia/Tokyo");
    assert.match(state.timeText(iso), /Dec 2, 2026.*8:30/);
    state.useTimeZone("Not/A_Zone"); // unknown to this browser: its own zone instead
    assert.deepEqual(state.timeZoneOptions(), {});
    state.useTimeZone(null);
    assert.equal(state.timeText("not a time"), "not a time");
  });
});
