// Time and seats (web/table_state.js): which no-stall control shows for whom, the time left, the
// acknowledgements, and when a nudge is fair. Each control shows only where the API would take it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as table from "../../web/table_state.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const iso = (hours) => new Date(NOW + hours * 3600 * 1000).toISOString().replace(/\.000Z$/, "Z");
const seat = (player_id, name, over = {}) => ({ player_id, name, score: 0, vacation_days_left: 7, ...over });

function game(over = {}) {
  return {
    phase: "submitting",
    host_id: "p-ada",
    you: { player_id: "p-ada" },
    players: [seat("p-ada", "Ada"), seat("p-bob", "Bob"), seat("p-cy", "Cy"), seat("p-di", "Di")],
    round: {
      waiting: [
        { player_id: "p-bob", name: "Bob", move: "submit", deadline: iso(5), nudge_after: iso(-1) },
        { player_id: "p-cy", name: "Cy", move: "submit", deadline: iso(30), nudge_after: iso(2) },
      ],
      extended: ["p-cy"],
    },
    ...over,
  };
}

const row = (g, id) => table.seatRows(g, NOW).find((r) => r.playerId === id);

describe("time and seats", () => {
  test("time left, in days, hours and minutes, and out of time once the deadline passed", () => {
    assert.equal(table.timeLeftText(iso(5), NOW), "5 h left");
    assert.equal(table.timeLeftText(iso(30.5), NOW), "1 day 6 h left");
    assert.equal(table.timeLeftText(iso(0.25), NOW), "15 min left");
    assert.equal(table.timeLeftText(iso(-1), NOW), "out of time");
  });

  test("+24 h is offered once per owed move, never for yourself, never past the deadline", () => {
    assert.equal(row(game(), "p-bob").extend, true);
    assert.equal(row(game(), "p-cy").extend, false); // extended already
    assert.equal(row(game(), "p-di").extend, false); // owes nothing
    const mine = game({ you: { player_id: "p-bob" } });
    assert.equal(row(mine, "p-bob").extend, false);
    const late = game();
    late.round.waiting[0].deadline = iso(-0.1);
    assert.equal(row(late, "p-bob").extend, false);
    assert.match(row(game(), "p-bob").facts[0], /owes cards: 5 h left/);
  });

  test("only the host offers or removes, only a seat whose player timed out, and never below three", () => {
    const g = game();
    g.players[1].timed_out = true;
    assert.deepEqual([row(g, "p-bob").offer, row(g, "p-bob").remove], [true, true]);
    assert.deepEqual([row(g, "p-cy").offer, row(g, "p-cy").remove], [false, false]);
    assert.match(row(g, "p-bob").facts.join(), /missed their last move/);
    // A deleted account's seat says so (not "missed their last move"), and gets no more time.
    const gone = game();
    Object.assign(gone.players[1], { timed_out: true, departed: true });
    assert.match(row(gone, "p-bob").facts.join(), /left Dixit \(account deleted\)/);
    assert.doesNotMatch(row(gone, "p-bob").facts.join(), /missed their last move/);
    assert.deepEqual([row(gone, "p-bob").offer, row(gone, "p-bob").remove, row(gone, "p-bob").extend], [true, true, false]);
    const guest = { ...g, you: { player_id: "p-di" } };
    assert.deepEqual([row(guest, "p-bob").offer, row(guest, "p-bob").remove], [false, false]);
    // Offered already: no second offer, and the seat says so.
    g.players[1].offered = true;
    assert.equal(row(g, "p-bob").offer, false);
    assert.match(row(g, "p-bob").facts.join(), /seat offered/);
    // Three at the table: removing one would leave two.
    const three = game({ players: g.players.slice(0, 3) });
    assert.equal(row(three, "p-bob").remove, false);
    // Leaving already: nothing more to do.
    g.players[1].leaving = true;
    assert.deepEqual([row(g, "p-bob").offer, row(g, "p-bob").remove], [false, false]);
    assert.match(row(g, "p-bob").facts.join(), /leaves at the end of this round/);
    // Not in play: no controls at all.
    g.players[1].leaving = false;
    g.players[1].offered = false;
    assert.equal(row({ ...g, phase: "finished" }, "p-bob").offer, false);
  });

  test("a vacation, with the days left, while none runs and days remain", () => {
    assert.deepEqual(table.vacationOffer(game(), NOW), { left: 7, choices: [1, 2, 3, 4, 5, 6, 7] });
    const used = game();
    used.players[0].vacation_days_left = 0;
    assert.equal(table.vacationOffer(used, NOW), null);
    const away = game();
    away.players[0].vacation_until = iso(24);
    away.players[0].vacation_days_left = 6;
    assert.equal(table.vacationOffer(away, NOW), null);
    assert.match(table.vacationNow(away, NOW), /You are on vacation until .*6 vacation days are left/);
    assert.equal(table.vacationOffer(game({ phase: "lobby" }), NOW), null);
    assert.equal(table.daysLeftText(1), "1 vacation day is left in this game.");
  });

  test("each control is acknowledged in words, from the game the API answered with", () => {
    const after = game();
    after.players[0].vacation_until = iso(48);
    after.players[0].vacation_days_left = 5;
    assert.match(table.vacationAck(after, 2), /^You are on vacation until .* \(2 days\): .*5 vacation days are left/);
    assert.match(table.extendAck(game(), "p-bob"), /^Bob has 24 more hours: they now have until /);
    assert.match(table.offerAck(game(), "p-bob"), /^Bob's seat is offered\. Share the seat's link/);
    assert.match(table.removeAck(game(), "p-bob"), /^Bob is removed: .*end of this round/);
    assert.match(table.removeQuestion("Bob"), /^Remove Bob from this game\?/);
  });

  test("a nudge is fair once a share of the owed player's time passed, and says from when otherwise", () => {
    assert.deepEqual(table.nudgeState(game(), NOW), { ready: true, names: ["Bob"] });
    const early = game();
    early.round.waiting[0].nudge_after = iso(1);
    const state = table.nudgeState(early, NOW);
    assert.equal(state.ready, false);
    assert.equal(state.from, iso(1));
    assert.match(state.text, /^You can nudge Bob and Cy from /);
    // Nobody else owes a move: nothing to nudge.
    assert.equal(table.nudgeState(game({ round: { waiting: [{ player_id: "p-ada", name: "Ada" }] } }), NOW), null);
  });

  test("the screen is drawn again when a nudge becomes fair or a deadline passes", () => {
    assert.deepEqual(table.timeMarks(game()), [iso(-1), iso(2), iso(5), iso(30)].map(Date.parse));
  });
});
