// A finished game's rematch in words (web/rematch_state.js): open one, join someone's, or go to yours.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { rematchOffer } from "../../web/rematch_state.js";

const seated = [
  { player_id: "p-emil", name: "Emil" },
  { player_id: "p-fay", name: "Fay" },
];
const page = (over = {}) => ({ phase: "lobby", host_id: "p-emil", host_name: "Emil", seated, you_are_in: false, ...over });

describe("the rematch", () => {
  test("nobody opened it yet: open one", () => {
    assert.deepEqual(rematchOffer(null, "p-ada"), {
      opened: false,
      text: "The same settings; the other players are told and can join.",
      label: "Play again (rematch)",
    });
  });

  test("someone opened it: who, who is in, and a one-tap join", () => {
    assert.deepEqual(rematchOffer(page(), "p-ada"), {
      opened: true,
      text: "Emil opened a rematch. Emil and Fay are in. Join with one tap.",
      label: "Join Emil's rematch",
    });
    assert.equal(rematchOffer(page({ seated: seated.slice(0, 1) }), "p-ada").text, "Emil opened a rematch. Emil is in. Join with one tap.");
  });

  test("you are in it already: go there", () => {
    const mine = rematchOffer(page({ you_are_in: true }), "p-fay");
    assert.equal(mine.text, "Emil opened a rematch. Emil and you are in.");
    assert.equal(mine.label, "Go to the rematch");
    assert.equal(rematchOffer(page({ you_are_in: true, host_id: "p-fay" }), "p-fay").text.startsWith("You opened"), true);
  });
});
