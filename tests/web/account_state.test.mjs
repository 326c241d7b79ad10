// The web client's account logic (web/account_state.js), under `node --test tests/web/`: routes, the
// email and code checks, the sessions list, the email panel and the API's problems in words.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import * as acc from "../../web/account_state.js";

describe("parseRoute and screenFor", () => {
  test("the mail's sign-in link gives back the address and the code, decoded", () => {
    const hash = acc.signInHash("ada+dixit@example.org", "012345");
    assert.equal(hash, "#/sign-in/ada%2Bdixit%40example.org/012345");
    assert.deepEqual(acc.parseRoute(hash), { name: "sign-in-link", email: "ada+dixit@example.org", code: "012345" });
  });

  test("every route has its name and parameters", () => {
    assert.deepEqual(acc.parseRoute("#/sign-in"), { name: "sign-in" });
    assert.deepEqual(acc.parseRoute("#/verify-email/654321"), { name: "verify-email", code: "654321" });
    assert.deepEqual(acc.parseRoute("#/account"), { name: "account" });
    assert.deepEqual(acc.parseRoute("#/new"), { name: "new" });
    assert.deepEqual(acc.parseRoute("#/join/g1/abc"), { name: "join", gameId: "g1", inviteCode: "abc" });
    assert.deepEqual(acc.parseRoute("#/game/g1"), { name: "game", gameId: "g1", card: null });
    assert.deepEqual(acc.parseRoute("#/game/g1?card=base-007"), { name: "game", gameId: "g1", card: "base-007" });
    assert.deepEqual(acc.parseRoute("#/play/g1"), { name: "game", gameId: "g1", card: null });
    for (const hash of ["", "#", "#/", "#/nowhere", "#/game", "#/verify-email"]) {
      assert.deepEqual(acc.parseRoute(hash), { name: "inbox" }, hash);
    }
  });

  test("a malformed escape in a hand-typed address does not throw", () => {
    assert.deepEqual(acc.parseRoute("#/sign-in/ada%ZZ/123456"), { name: "sign-in-link", email: "ada%ZZ", code: "123456" });
  });

  test("without a token only the start, the sign-in and the link screens show", () => {
    const screen = (hash, signedIn) => acc.screenFor(acc.parseRoute(hash), signedIn);
    assert.equal(screen("#/game/g1", false), "register");
    assert.equal(screen("#/account", false), "register");
    assert.equal(screen("#/sign-in", false), "sign-in");
    assert.equal(screen("#/sign-in/a%40b.c/123456", false), "sign-in-link");
    assert.equal(screen("#/verify-email/123456", false), "verify-email-elsewhere");
  });

  test("with a token the link screens still ask first; the sign-in form gives way to the inbox", () => {
    const screen = (hash) => acc.screenFor(acc.parseRoute(hash), true);
    assert.equal(screen("#/sign-in/a%40b.c/123456"), "sign-in-link");
    assert.equal(screen("#/verify-email/123456"), "verify-email");
    assert.equal(screen("#/sign-in"), "inbox");
    assert.equal(screen("#/account"), "account");
    assert.equal(screen("#/game/g1"), "game");
  });
});

describe("what the player types", () => {
  test("a code is six digits; spaces and dashes from a copy do not count", () => {
    assert.equal(acc.cleanCode(" 123 456 "), "123456");
    assert.equal(acc.cleanCode("123-456"), "123456");
    assert.equal(acc.codeProblem("123 456"), null);
    assert.equal(acc.codeReady("012345"), true);
  });

  test("a wrong code says what is wrong", () => {
    assert.match(acc.codeProblem(""), /6-digit code/);
    assert.match(acc.codeProblem("12a456"), /digits only/);
    assert.match(acc.codeProblem("12345"), /6 digits; this has 5/);
    assert.match(acc.codeProblem("1234567"), /this has 7/);
    assert.equal(acc.codeReady("12345"), false);
  });

  test("an email address needs an @ and a domain", () => {
    assert.equal(acc.emailProblem(" ada@example.org "), null);
    assert.match(acc.emailProblem(""), /Enter your email/);
    assert.match(acc.emailProblem("ada"), /does not look like/);
    assert.match(acc.emailProblem("ada@example"), /does not look like/);
    assert.match(acc.emailProblem("a da@example.org"), /does not look like/);
  });

  test("deleting needs the exact name typed", () => {
    assert.equal(acc.deleteReady("Ada", "Ada"), true);
    assert.equal(acc.deleteReady("  Ada ", "Ada"), true);
    assert.equal(acc.deleteReady("ada", "Ada"), false);
    assert.equal(acc.deleteReady("", ""), false);
    assert.equal(acc.deleteReady(undefined, "Ada"), false);
  });
});

describe("devices and sessions", () => {
  test("a device label from the user agent", () => {
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
    const headless = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36";
    assert.equal(acc.deviceLabel(android), "Chrome on Android");
    assert.equal(acc.deviceLabel(iphone), "Safari on iPhone");
    assert.equal(acc.deviceLabel(firefox), "Firefox on Windows");
    assert.equal(acc.deviceLabel(headless), "Chrome on Linux");
    assert.equal(acc.deviceLabel(""), "Web browser");
  });

  test("last use: the exact time the API recorded, never a vague 'in the last hour'", () => {
    const text = acc.lastUsedText("2025-05-10T11:30:00Z");
    assert.match(text, /^Last used .*2025/);
    assert.equal(text, `Last used ${new Date("2025-05-10T11:30:00Z").toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}`);
    assert.equal(acc.lastUsedText("not a date"), "Last use unknown");
  });

  const sessions = [
    { session_id: "s_old", device: "unnamed device", created_at: "2025-01-01T00:00:00Z", last_used_at: "2025-05-01T00:00:00Z", current: false },
    { session_id: "s_me", device: "Chrome on Linux", created_at: "2025-05-10T09:00:00Z", last_used_at: "2025-05-10T11:00:00Z", current: true },
    { session_id: "s_phone", device: "ada's phone", created_at: "2025-03-01T00:00:00Z", last_used_at: "2025-05-10T08:00:00Z", current: false },
  ];

  test("this device first, then the others by last use, each other one with its sign-out", () => {
    const rows = acc.sessionRows(sessions, new Date("2025-05-10T12:00:00Z"));
    assert.deepEqual(rows.map((r) => r.id), ["s_me", "s_phone", "s_old"]);
    assert.deepEqual(rows.map((r) => r.device), ["Chrome on Linux", "Ada's phone", "Unnamed device"]);
    assert.equal(rows[0].current, true);
    assert.equal(rows[0].signOut, null);
    assert.equal(rows[0].lastUsed, "In use now");
    assert.deepEqual(rows[1].signOut, { text: "Sign out this device", label: "Sign out Ada's phone" });
    assert.match(rows[1].lastUsed, /^Last used May 10, 2025/);
    assert.match(rows[2].since, /^Signed in on .*2025/);
  });

  test("sign out everywhere else only while another device is signed in", () => {
    assert.equal(acc.othersSignedIn(sessions), true);
    assert.equal(acc.othersSignedIn(sessions.filter((s) => s.current)), false);
    assert.equal(acc.othersSignedIn(undefined), false);
  });
});

describe("the email panel", () => {
  test("no address yet: the form to add one", () => {
    const panel = acc.emailPanel({ name: "Ada", email: null, email_verified: false, pending_email: null });
    assert.deepEqual(panel, { step: "add", heading: "Keep my games: add your email", current: null });
    // An API without the email fields yet reads the same.
    assert.equal(acc.emailPanel({ name: "Ada" }).step, "add");
  });

  test("a code just sent: its entry, with the address and when it expires", () => {
    const pending = { email: "ada@example.org", expires_at: "2025-05-10T12:15:00Z" };
    const panel = acc.emailPanel({ name: "Ada", email: null }, { pending });
    assert.deepEqual(panel, { step: "code", address: "ada@example.org", expiresAt: pending.expires_at, earlier: false, keeps: null });
    assert.equal(acc.codeSentText(panel), "We sent a code to ada@example.org. Enter it here, or open the link in the mail.");
    assert.match(acc.expiryText(pending.expires_at), /^The code works until \d/);
    assert.equal(acc.expiryText(null), null);
  });

  test("an address whose code was never entered: the code entry, saying it was sent earlier", () => {
    const me = { email: "ada@example.org", email_verified: false, pending_email: "ada@example.org" };
    const panel = acc.emailPanel(me);
    assert.equal(panel.step, "code");
    assert.equal(panel.address, "ada@example.org");
    assert.equal(panel.earlier, true);
    assert.equal(panel.keeps, null);
    assert.match(acc.codeSentText(panel), /earlier/);
  });

  test("a new address waiting while the confirmed one stays", () => {
    const me = { email: "ada@example.org", email_verified: true, pending_email: "ada@new.example" };
    const panel = acc.emailPanel(me);
    assert.equal(panel.step, "code");
    assert.equal(panel.address, "ada@new.example");
    assert.equal(panel.keeps, "ada@example.org");
    assert.match(acc.codeSentText(panel), /Until then, ada@example\.org stays your address\.$/);
    const fresh = acc.emailPanel(me, { pending: { email: "ada@new.example", expires_at: null } });
    assert.equal(fresh.keeps, "ada@example.org");
  });

  test("verified: the address; changing it goes back to the form, with the old address kept", () => {
    const me = { email: "ada@example.org", email_verified: true, pending_email: null };
    assert.deepEqual(acc.emailPanel(me), { step: "verified", address: "ada@example.org", heading: "Your email" });
    const changing = acc.emailPanel(me, { changing: true });
    assert.equal(changing.step, "add");
    assert.equal(changing.current, "ada@example.org");
  });
});

describe("problemText", () => {
  test("each invalid field in words, never the machine code", () => {
    const body = {
      title: "Unprocessable Content",
      detail: "the request does not match the API schema",
      code: "validation_error",
      errors: [{ loc: ["body", "name"], msg: "String should have at most 40 characters", type: "string_too_long" }],
    };
    assert.equal(acc.problemText(body, 422), "Your name is too long: at most 40 characters.");
    const two = { ...body, errors: [...body.errors, { loc: ["body", "email"], msg: "Field required", type: "missing" }] };
    assert.equal(acc.problemText(two, 422), "Your name is too long: at most 40 characters. The email address is missing.");
    const pattern = { loc: ["body", "name"], msg: "String should match pattern '^[^\\x00]*$'", type: "string_pattern_mismatch" };
    assert.equal(acc.problemText({ ...body, errors: [pattern] }, 422), "Your name has characters that are not allowed.");
    const odd = { ...body, errors: [{ loc: ["body", "x"], msg: "Something Odd", type: "weird" }] };
    assert.equal(acc.problemText(odd, 422), "The field x something Odd.");
    // A token with no scope ticked: the API's list check, not pydantic's own sentence.
    const empty = { loc: ["body", "scopes"], msg: "List should have at least 1 item after validation, not 0", type: "too_short" };
    assert.equal(acc.problemText({ ...body, errors: [empty] }, 422), "What it may do needs at least one choice.");
  });

  test("a known code in the client's words; else the detail made a sentence, else the title, else the status", () => {
    assert.equal(acc.problemText({ detail: "the code is wrong or has expired", code: "invalid_code" }, 422), "The code is wrong or has expired.");
    assert.equal(acc.problemText({ title: "Too Many Requests", code: "rate_limited" }, 429), "That was a lot at once. Wait a moment, then try again.");
    assert.equal(acc.problemText({ title: "Forbidden" }, 403), "Forbidden");
    assert.equal(
      acc.problemText({ detail: "that invite code does not open this game", code: "bad_invite_code" }, 403),
      "That invite link is not right for this game. Ask the host for the link again.",
    );
    assert.equal(acc.problemText(null, 502, "Bad Gateway"), "502 Bad Gateway");
  });
});

describe("personal tokens", () => {
  test("no scope the form offers is the owner's, and playing is ticked by default", () => {
    const scopes = acc.TOKEN_SCOPES.map((s) => s.scope);
    assert.ok(!scopes.includes("account:owner"));
    assert.deepEqual(acc.TOKEN_SCOPES.filter((s) => s.checked).map((s) => s.scope), ["games:read", "games:play"]);
  });

  test("a request carries the trimmed name and the ticked scopes in the API's order", () => {
    assert.deepEqual(acc.tokenRequest("  my bot ", ["games:play", "account:read", "games:read"]), {
      name: "my bot",
      scopes: ["games:read", "games:play", "account:read"],
    });
    assert.deepEqual(acc.tokenRequest("x", ["account:owner"]).scopes, []);
  });

  test("rows show the newest first, scopes in words, never used until used, and a Revoke naming it", () => {
    const rows = acc.tokenRows([
      { token_id: "t_1", name: "old bot", scopes: ["games:read"], created_at: "2026-11-01T09:00:00.000+00:00", last_used_at: null },
      { token_id: "t_2", name: "new bot", scopes: ["games:play", "games:read"], created_at: "2026-11-02T09:00:00.000+00:00", last_used_at: "2026-11-03T09:00:00.000+00:00" },
    ]);
    assert.deepEqual(rows.map((r) => r.id), ["t_2", "t_1"]);
    assert.equal(rows[0].scopes, "See your games and your inbox; Play: create, join and play games");
    assert.equal(rows[1].lastUsed, "Never used");
    assert.match(rows[0].lastUsed, /^Last used /);
    assert.equal(rows[1].revoke.label, "Revoke old bot");
    assert.equal(acc.scopeWords([]), "No scope");
  });
});

describe("apps (OAuth)", () => {
  test("an app's authorization request keeps its whole query for the consent page", () => {
    const query = "client_id=My%20bot&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcb&state=a%3Fb";
    assert.deepEqual(acc.parseRoute(`#/authorize?${query}`), { name: "authorize", query });
    assert.equal(acc.screenFor({ name: "authorize" }, true), "authorize");
    assert.equal(acc.screenFor({ name: "authorize" }, false), "register");
  });

  test("the apps list names each app by its client_id, newest first, with its rights and a revoke", () => {
    const rows = acc.appRows([
      { grant_id: "a_1", client_id: "https://old.example", scopes: ["games:read"], created_at: "2026-11-01T09:00:00.000+00:00", last_used_at: null },
      { grant_id: "a_2", client_id: "<b>bot</b>", scopes: ["games:play", "games:read"], created_at: "2026-11-02T09:00:00.000+00:00", last_used_at: "2026-11-03T09:00:00.000+00:00" },
    ]);
    assert.deepEqual(rows.map((r) => r.id), ["a_2", "a_1"]);
    assert.equal(rows[0].name, "<b>bot</b>"); // shown as text by h(), never parsed
    assert.equal(rows[0].scopes, "See your games and your inbox; Play: create, join and play games");
    assert.equal(rows[1].lastUsed, "Never used");
    assert.equal(rows[1].revoke.label, "Revoke https://old.example");
  });
});
