// The account side of the client, worked out without a DOM or fetch (so `node --test tests/web/` checks it):
// which screen an address names, the checks on an email address and a mailed code, the rows of the
// sessions list, what the email part of the account screen shows, and the API's problems in words.

import { timeZoneOptions } from "./state.js";
import { problemWords } from "./words.js";

const CODE_LENGTH = 6;
const DEFAULT_DEVICE = "unnamed device"; // what the API names a session opened without a label

function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray "%" in a hand-typed address: use it as it is
  }
}

// "#/sign-in/ada%40example.org/123456" → {name: "sign-in-link", email, code}, and so on for every route.
export function parseRoute(hash) {
  const [path, query = ""] = String(hash || "").split("?");
  const parts = path
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map(decoded);
  const [first, second, third] = parts;
  if (first === "sign-in" && second && third) return { name: "sign-in-link", email: second, code: third };
  if (first === "sign-in") return { name: "sign-in" };
  if (first === "verify-email" && second) return { name: "verify-email", code: second };
  if (first === "account") return { name: "account" };
  // An app's authorization request (GET /oauth/authorize sends the browser here with its query).
  if (first === "authorize") return { name: "authorize", query };
  if (first === "notifications") return { name: "notifications" };
  if (first === "new") return { name: "new" };
  if (first === "join" && second) return { name: "join", gameId: second, inviteCode: third };
  // A link from a mail or a push (/play/{id}?card=… becomes #/game/{id}?card=…): the card is only preselected.
  if ((first === "game" || first === "play") && second) {
    return { name: "game", gameId: second, card: new URLSearchParams(query).get("card") };
  }
  return { name: "inbox" };
}

// Which screen draws the route: without a token only the start screen and the sign-in ones can help.
export function screenFor(route, signedIn) {
  if (route.name === "sign-in-link") return "sign-in-link";
  if (route.name === "verify-email") return signedIn ? "verify-email" : "verify-email-elsewhere";
  if (!signedIn) return route.name === "sign-in" ? "sign-in" : "register";
  return route.name === "sign-in" ? "inbox" : route.name;
}

export const signInHash = (email, code) => `#/sign-in/${encodeURIComponent(email)}/${encodeURIComponent(code)}`;

// --- what the player types ---------------------------------------------------------------------------

// People copy codes as "123 456" or "123-456": only the digits count.
export const cleanCode = (text) => String(text ?? "").replace(/[\s-]/g, "");

export function codeProblem(text) {
  const code = cleanCode(text);
  if (code === "") return `Enter the ${CODE_LENGTH}-digit code from the mail.`;
  if (!/^\d+$/.test(code)) return "The code has digits only.";
  if (code.length !== CODE_LENGTH) return `The code has ${CODE_LENGTH} digits; this has ${code.length}.`;
  return null;
}

export const codeReady = (text) => codeProblem(text) === null;

export function emailProblem(text) {
  const email = String(text ?? "").trim();
  if (email === "") return "Enter your email address.";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return "That does not look like an email address.";
  return null;
}

export const deleteReady = (typed, name) => String(typed ?? "").trim() !== "" && String(typed).trim() === name;

// --- devices and sessions ----------------------------------------------------------------------------

// A label for this device in the sessions list, from the browser's user agent: "Chrome on Android".
export function deviceLabel(userAgent) {
  const ua = String(userAgent || "");
  const browsers = [
    [/Edg\//, "Edge"],
    [/SamsungBrowser/, "Samsung Internet"],
    [/Firefox\/|FxiOS/, "Firefox"],
    [/CriOS|Chrome\/|Chromium/, "Chrome"],
    [/Safari\//, "Safari"],
  ];
  const systems = [
    [/iPhone/, "iPhone"],
    [/iPad/, "iPad"],
    [/Android/, "Android"],
    [/CrOS/, "ChromeOS"],
    [/Windows/, "Windows"],
    [/Macintosh|Mac OS X/, "Mac"],
    [/Linux/, "Linux"],
  ];
  const browser = browsers.find(([re]) => re.test(ua))?.[1];
  const system = systems.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || "Web browser";
}

function dateText(when) {
  return when.toLocaleDateString([], { dateStyle: "medium", ...timeZoneOptions() });
}

// The time the API recorded the session's last use, exactly, in the player's own clock: "Last used in
// the last hour" was read as a session used seconds ago. (The API records a use at most once an hour.)
export function lastUsedText(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "Last use unknown";
  return `Last used ${when.toLocaleString([], { dateStyle: "medium", timeStyle: "short", ...timeZoneOptions() })}`;
}

function deviceName(device) {
  const text = String(device || "").trim();
  if (!text || text === DEFAULT_DEVICE) return "Unnamed device";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// This device first, then the others, most recently used first.
export function sessionRows(sessions, now = new Date()) {
  const rows = (sessions || []).map((s) => {
    const device = deviceName(s.device);
    const since = new Date(s.created_at);
    return {
      id: s.session_id,
      device,
      current: Boolean(s.current),
      lastUsed: s.current ? "In use now" : lastUsedText(s.last_used_at, now),
      since: Number.isNaN(since.getTime()) ? "" : `Signed in on ${dateText(since)}`,
      signOut: s.current ? null : { text: "Sign out this device", label: `Sign out ${device}` },
      usedAt: Date.parse(s.last_used_at) || 0,
    };
  });
  return rows.sort((a, b) => Number(b.current) - Number(a.current) || b.usedAt - a.usedAt);
}

export const othersSignedIn = (sessions) => (sessions || []).some((s) => !s.current);

// --- personal tokens (docs/tokens.md) -----------------------------------------------------------------

// The scopes a personal token may be given, in the API's order, in words. `account:owner` is never one:
// only the player's own sessions hold it.
export const TOKEN_SCOPES = [
  { scope: "games:read", words: "See your games and your inbox", checked: true },
  { scope: "games:play", words: "Play: create, join and play games", checked: true },
  { scope: "notifications:manage", words: "Manage notifications" },
  { scope: "webhooks:manage", words: "Manage webhooks" },
  { scope: "decks:manage", words: "Manage custom decks" },
  { scope: "account:read", words: "See who you are and export your data" },
  { scope: "account:write", words: "Change your name" },
];

const SCOPE_WORDS = Object.fromEntries(TOKEN_SCOPES.map((s) => [s.scope, s.words]));

// A token's scopes in words, in the API's order ("See your games and your inbox; Play: …").
export function scopeWords(scopes) {
  const given = new Set(scopes || []);
  return TOKEN_SCOPES.filter((s) => given.has(s.scope)).map((s) => s.words).join("; ") || "No scope";
}

// The list's rows: most recently made first, each with its last use and a "Revoke" naming it.
export function tokenRows(tokens) {
  const rows = (tokens || []).map((t) => {
    const made = new Date(t.created_at);
    return {
      id: t.token_id,
      name: String(t.name || "").trim() || "Unnamed token",
      scopes: scopeWords(t.scopes),
      lastUsed: t.last_used_at ? lastUsedText(t.last_used_at) : "Never used",
      since: Number.isNaN(made.getTime()) ? "" : `Made on ${dateText(made)}`,
      revoke: { text: "Revoke", label: `Revoke ${String(t.name || "").trim() || "this token"}` },
      madeAt: Date.parse(t.created_at) || 0,
    };
  });
  return rows.sort((a, b) => b.madeAt - a.madeAt);
}

// The apps list's rows (OAuth grants): most recently approved first, each named by the app's own
// client_id (text only: the app chose it), its scopes in words, its last use and a "Revoke" naming it.
export function appRows(apps) {
  const rows = (apps || []).map((a) => {
    const made = new Date(a.created_at);
    const name = String(a.client_id || "").trim() || "Unnamed app";
    return {
      id: a.grant_id,
      name,
      scopes: scopeWords(a.scopes),
      lastUsed: a.last_used_at ? lastUsedText(a.last_used_at) : "Never used",
      since: Number.isNaN(made.getTime()) ? "" : `Allowed on ${dateText(made)}`,
      revoke: { text: "Revoke", label: `Revoke ${name}` },
      madeAt: Date.parse(a.created_at) || 0,
    };
  });
  return rows.sort((a, b) => b.madeAt - a.madeAt);
}

// What a new token is made with: the name typed (trimmed) and the scopes ticked, in the API's order.
export function tokenRequest(name, ticked) {
  const given = new Set(ticked || []);
  return { name: String(name || "").trim(), scopes: TOKEN_SCOPES.map((s) => s.scope).filter((s) => given.has(s)) };
}

// --- the email part of the account screen -------------------------------------------------------------

// What it shows: a form to add an address ("add"), the code sent to one ("code"), or the verified one.
// `pending` is this screen's own answer from POST /players/me/email; `changing` is a tap on "Change".
// The API keeps a confirmed address until a new one is confirmed (`pending_email` waits for its code).
export function emailPanel(me, { pending = null, changing = false } = {}) {
  const confirmed = me?.email_verified ? me.email || null : null;
  const keeps = (address) => (confirmed && confirmed !== address ? confirmed : null);
  if (pending) {
    const address = pending.email;
    return { step: "code", address, expiresAt: pending.expires_at ?? null, earlier: false, keeps: keeps(address) };
  }
  if (changing) return { step: "add", heading: "Keep my games: add your email", current: confirmed || me?.email || null };
  // An address added earlier whose code was never entered: enter it now, or have a new one sent.
  const waiting = me?.pending_email || (me?.email && !me.email_verified ? me.email : null);
  if (waiting) return { step: "code", address: waiting, expiresAt: null, earlier: true, keeps: keeps(waiting) };
  if (confirmed) return { step: "verified", address: confirmed, heading: "Your email" };
  return { step: "add", heading: "Keep my games: add your email", current: null };
}

export function codeSentText(panel) {
  const sent = panel.earlier
    ? `A code was sent to ${panel.address} earlier. Enter it here, or have a new one sent.`
    : `We sent a code to ${panel.address}. Enter it here, or open the link in the mail.`;
  return panel.keeps ? `${sent} Until then, ${panel.keeps} stays your address.` : sent;
}

export function expiryText(iso) {
  const when = new Date(iso);
  if (!iso || Number.isNaN(when.getTime())) return null;
  return `The code works until ${when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", ...timeZoneOptions() })}.`;
}

// --- the API's problems in words -----------------------------------------------------------------------

const FIELD_WORDS = {
  name: "Your name",
  email: "The email address",
  code: "The code",
  device: "The device name",
  scopes: "What it may do",
};
const TYPE_WORDS = {
  missing: "is missing",
  too_short: "needs at least one choice",
  string_too_short: "is empty",
  string_too_long: "is too long",
  string_pattern_mismatch: "has characters that are not allowed",
  string_type: "must be text",
};

function sentence(text) {
  const t = String(text).trim();
  if (!t) return t;
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

// The problem+json body in words: each invalid field as a sentence when the API lists them, else its
// detail as the API words it, else its title, else the status line. Never the machine code alone.
export function problemText(body, status, statusText = "") {
  const fields = (Array.isArray(body?.errors) ? body.errors : [])
    .map((e) => {
      const loc = (e.loc || []).filter((p) => p !== "body");
      const field = FIELD_WORDS[loc[loc.length - 1]] || (loc.length ? `The field ${loc.join(".")}` : null);
      const limit = /at most (\d+) character/.exec(e.msg || "");
      const words = e.type === "string_too_long" && limit ? `is too long: at most ${limit[1]} characters` : null;
      const what = words || TYPE_WORDS[e.type] || (e.msg ? String(e.msg).replace(/^./, (c) => c.toLowerCase()) : null);
      return field && what ? sentence(`${field} ${what}`) : null;
    })
    .filter(Boolean);
  if (fields.length) return fields.join(" ");
  if (body?.code || body?.detail) return problemWords(body.code, body.detail || body.title);
  return body?.title || `${status} ${statusText || "error"}`.trim();
}
