// Table talk in words (web/talk_state.js): which lines show and how, when the box is closed, reactions.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  MAX_MESSAGE_LENGTH,
  canSend,
  charactersLeft,
  closedText,
  otherPlayers,
  reactionRow,
  shouldRefresh,
  talkLines,
  windowOf,
  windowOfRefusal,
} from "../../web/talk_state.js";

const message = (n, over = {}) => ({
  message_id: `m_179604000000${n}0000000${n}`,
  author_id: "p-bob",
  author_name: "Bob",
  text: `hello ${n}`,
  hidden: false,
  hidden_by: null,
  reported: false,
  round: 0,
  phase: "lobby",
  posted_at: "2026-12-01T12:00:00.000Z",
  ...over,
});

describe("the lines", () => {
  test("oldest first, so the newest sits at the bottom beside the box; the API's page is newest first", () => {
    const lines = talkLines([message(3), message(2), message(1, { author_id: "p-ada", author_name: "Ada" })], { me: "p-ada" });
    assert.deepEqual(
      lines.map((l) => [l.who, l.text, l.mine, l.canReport]),
      [
        ["Ada", "hello 1", true, false],
        ["Bob", "hello 2", false, true],
        ["Bob", "hello 3", false, true],
      ],
    );
  });

  test("a muted player's messages are not shown at all, whether the API or this page muted them", () => {
    const page = [message(1, { hidden: true, hidden_by: "you", text: null }), message(2, { author_id: "p-cy" }), message(3)];
    assert.deepEqual(talkLines(page, { me: "p-ada" }).map((l) => l.id), [message(2).message_id, message(3).message_id]);
    assert.deepEqual(talkLines(page, { me: "p-ada", muted: new Set(["p-cy"]) }).map((l) => l.id), [message(3).message_id]);
  });

  test("a message the host hid keeps its place, shown as hidden and never reportable", () => {
    const [line] = talkLines([message(1, { hidden: true, hidden_by: "host", text: null })], { me: "p-ada" });
    assert.deepEqual([line.text, line.hidden, line.canReport], ["Hidden by the host.", true, false]);
  });

  test("an erased author's message says so; only the host sees a report, and only on a shown message", () => {
    const [gone] = talkLines([message(1, { text: null, author_name: "Deleted player" })], { me: "p-ada" });
    assert.deepEqual([gone.text, gone.gone, gone.canReport], ["Deleted.", true, false]);
    const reported = [message(2, { reported: true })];
    assert.equal(talkLines(reported, { me: "p-ada", host: true })[0].reported, true);
    assert.equal(talkLines(reported, { me: "p-ada", host: false })[0].reported, false);
  });

  test("words stay the player's own: markup is text, never interpreted here", () => {
    const [line] = talkLines([message(1, { text: "<img src=x onerror=alert(1)>" })]);
    assert.equal(line.text, "<img src=x onerror=alert(1)>");
  });

  test("a spectator (no seat) reports nothing", () => {
    assert.equal(talkLines([message(1)], { me: null })[0].canReport, false);
  });
});

describe("when the table may talk", () => {
  test("the game's setting and phase, as the rules core says", () => {
    const game = (phase, table_talk) => ({ phase, settings: table_talk ? { table_talk } : {} });
    assert.deepEqual(windowOf(game("lobby")), { open: true, reopens: null });
    assert.deepEqual(windowOf(game("submitting")), { open: false, reopens: "at_reveal" });
    assert.deepEqual(windowOf(game("voting", "between_rounds")), { open: false, reopens: "at_reveal" });
    assert.deepEqual(windowOf(game("voting", "always")), { open: true, reopens: null });
    assert.deepEqual(windowOf(game("lobby", "off")), { open: false, reopens: "never" });
  });

  test("a refused message tells when talk opens again; other problems are not about talk", () => {
    assert.deepEqual(windowOfRefusal({ code: "table_talk_closed" }), { open: false, reopens: "at_reveal" });
    assert.deepEqual(windowOfRefusal({ code: "table_talk_off" }), { open: false, reopens: "never" });
    assert.equal(windowOfRefusal({ code: "too_many_messages" }), null);
  });

  test("the closed box says when it opens again", () => {
    assert.equal(closedText({ open: true, reopens: null }), "");
    assert.match(closedText({ open: false, reopens: "at_reveal" }), /^Talk opens again at the reveal/);
    assert.equal(closedText({ open: false, reopens: "never" }), "Table talk is off in this game.");
  });
});

describe("the box", () => {
  const open = { open: true, reopens: null };
  test("counts characters as the API does: trimmed, NFC, code points", () => {
    assert.equal(charactersLeft("  hi  "), MAX_MESSAGE_LENGTH - 2);
    assert.equal(charactersLeft("e\u0301"), MAX_MESSAGE_LENGTH - 1); // é composed
    assert.equal(charactersLeft("😂"), MAX_MESSAGE_LENGTH - 1);
  });

  test("sends something within the bound, only while open", () => {
    assert.equal(canSend("hi", open), true);
    assert.equal(canSend("   ", open), false);
    assert.equal(canSend("x".repeat(MAX_MESSAGE_LENGTH + 1), open), false);
    assert.equal(canSend("hi", { open: false, reopens: "at_reveal" }), false);
  });
});

describe("reactions and people", () => {
  test("every reaction of the fixed set, counted, with yours pressed", () => {
    const row = reactionRow([{ target: "round-2", counts: { laugh: 2, wow: 1 }, yours: "wow" }], "round-2");
    assert.deepEqual(row.map((r) => [r.reaction, r.count, r.mine]), [
      ["laugh", 2, false],
      ["wow", 1, true],
      ["love", 0, false],
      ["clever", 0, false],
      ["oops", 0, false],
    ]);
    assert.equal(row[1].label, "wow, 1 reaction, yours");
    assert.ok(reactionRow([], "round-1").every((r) => r.count === 0 && !r.mine));
  });

  test("the others at the table, with whom you muted or blocked", () => {
    const game = { you: { player_id: "p-ada" }, players: [{ player_id: "p-ada", name: "Ada" }, { player_id: "p-bob", name: "Bob" }, { player_id: "p-cy", name: "Cy" }] };
    assert.deepEqual(otherPlayers(game, { muted: new Set(["p-bob"]), blocked: new Set(["p-cy"]) }), [
      { id: "p-bob", name: "Bob", muted: true, blocked: false },
      { id: "p-cy", name: "Cy", muted: false, blocked: true },
    ]);
  });

  test("the talk is asked for again on a new version or after a while", () => {
    assert.equal(shouldRefresh(null, { version: 1 }, 0), true);
    assert.equal(shouldRefresh({ version: 1, at: 0 }, { version: 1 }, 1000), false);
    assert.equal(shouldRefresh({ version: 1, at: 0 }, { version: 2 }, 1000), true);
    assert.equal(shouldRefresh({ version: 1, at: 0 }, { version: 1 }, 60_000), true);
  });
});
