// The notification settings' logic (web/notify_state.js), under `node --test tests/web/`.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as ns from "../../web/notify_state.js";

const SAVED = {
  muted: false,
  time_zone: "UTC",
  quiet_hours: null,
  channels: { email: ["your_turn", "reminder", "game_over"], web_push: ["your_turn"], device_push: [] },
  digest: null,
  digest_talk: true,
};

describe("the time zone", () => {
  test("a player still on the default zone starts from the browser's", () => {
    assert.deepEqual(ns.startingZone("UTC", "Europe/Paris"), { zone: "Europe/Paris", fromBrowser: true });
  });
  test("a zone the player chose stays, whatever the browser says", () => {
    assert.deepEqual(ns.startingZone("Asia/Tokyo", "Europe/Paris"), { zone: "Asia/Tokyo", fromBrowser: false });
  });
});

describe("the form and the body it puts", () => {
  test("saving the starting values gives the whole agreed shape back, with the browser's zone", () => {
    const body = ns.preferencesBody(ns.formValues(SAVED, "Europe/Paris"));
    assert.deepEqual(body, { ...SAVED, time_zone: "Europe/Paris" });
  });
  test("quiet hours and the digest are null when off, and given when on", () => {
    const values = { ...ns.formValues(SAVED, "UTC"), quiet: true, quietStart: "23:00", quietEnd: "07:30" };
    values.digest = true;
    values.digestHour = "9";
    const body = ns.preferencesBody(values);
    assert.deepEqual(body.quiet_hours, { start: "23:00", end: "07:30" });
    assert.equal(body.digest, 9);
  });
  test("the digest counts unread table talk unless the player turned it off", () => {
    assert.equal(ns.formValues({ ...SAVED, digest_talk: undefined }, "UTC").digestTalk, true);
    const values = { ...ns.formValues(SAVED, "UTC"), digestTalk: false };
    assert.equal(ns.preferencesBody(values).digest_talk, false);
  });
  test("kinds are listed in the API's order whatever order they were ticked in", () => {
    const values = ns.formValues(SAVED, "UTC");
    values.channels.device_push = new Set(["game_over", "your_turn"]);
    assert.deepEqual(ns.preferencesBody(values).channels.device_push, ["your_turn", "game_over"]);
  });
  test("quiet hours without both ends, or ending when they start, are refused in words", () => {
    const values = { ...ns.formValues(SAVED, "UTC"), quiet: true, quietStart: "", quietEnd: "08:00" };
    assert.match(ns.formProblem(values), /start and an end/);
    assert.match(ns.formProblem({ ...values, quietStart: "08:00" }), /different times/);
    assert.equal(ns.formProblem({ ...values, quietStart: "22:00" }), null);
  });
});

describe("the kinds", () => {
  test("the game-over choice says it covers a finished game's rematch too", () => {
    assert.deepEqual(
      ns.KINDS.map(([kind]) => kind),
      ["your_turn", "reminder", "game_over"],
    );
    assert.match(Object.fromEntries(ns.KINDS).game_over, /rematch/i);
  });
});

describe("the channels shown", () => {
  test("a row only for a channel the player has: a confirmed email, a browser, a phone app", () => {
    const none = { emailVerified: false, webPushSubscriptions: 0, pushInThisBrowser: false, devices: 0 };
    assert.deepEqual(ns.channelsShown(none), []);
    assert.deepEqual(ns.channelsShown({ ...none, pushInThisBrowser: true }), ["web_push"]);
    assert.deepEqual(ns.channelsShown({ ...none, webPushSubscriptions: 1 }), ["web_push"]);
    assert.deepEqual(ns.channelsShown({ ...none, emailVerified: true, devices: 2 }), ["email", "device_push"]);
  });
});

describe("the zone times are told in", () => {
  test("the saved zone, unless it is only the default", () => {
    assert.equal(ns.shownZone("Europe/Paris"), "Europe/Paris");
    assert.equal(ns.shownZone("UTC"), "");
    assert.equal(ns.shownZone(undefined), "");
  });
});
