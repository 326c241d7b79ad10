// The API client: base URL, the stored token, conditional GETs, idempotent moves, problem details in words.

import { problemText } from "./account_state.js";

const DEFAULT_POLL_SECONDS = 5;
const MIN_POLL_SECONDS = 2;
const MOVE_ATTEMPTS = 3;

export class ApiError extends Error {
  constructor(status, detail, code) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

// `?api=` wins (a static host elsewhere, or a test); then a global set by an optional config.js; then the
// page's own origin, where `make run` serves this client.
export function apiBase(loc = window.location) {
  const given = new URLSearchParams(loc.search).get("api") || window.DIXIT_API || loc.origin;
  return given.replace(/\/+$/, "");
}

// crypto.randomUUID exists only in secure contexts; a phone on a LAN address over http is not one.
export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// How long the API asks us to wait before asking again: Retry-After, then Cache-Control max-age.
export function advertisedSeconds(headers) {
  const retry = headers.get("Retry-After");
  if (retry) {
    const seconds = /^\d+$/.test(retry) ? Number(retry) : (Date.parse(retry) - Date.now()) / 1000;
    if (Number.isFinite(seconds)) return Math.max(MIN_POLL_SECONDS, seconds);
  }
  const maxAge = /max-age=(\d+)/.exec(headers.get("Cache-Control") || "");
  if (maxAge && Number(maxAge[1]) > 0) return Math.max(MIN_POLL_SECONDS, Number(maxAge[1]));
  return DEFAULT_POLL_SECONDS;
}

async function problemOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line.
  }
  const error = new ApiError(response.status, problemText(body, response.status, response.statusText), body?.code);
  error.retryAfter = Number(response.headers?.get?.("Retry-After")) || null;
  error.signedOut = Boolean(response.signedOut); // nothing to show: the start screen says it already
  return error;
}

// No answer at all (offline, the server down): `network` lets a screen leave it to the offline line.
function unreachable() {
  const error = new ApiError(0, "The server could not be reached. Check your connection and try again.");
  error.network = true;
  return error;
}

export class Api {
  constructor(base, storage = window.localStorage) {
    this.base = base;
    this.storage = storage;
    this.prefix = `dixit:${base}:`;
    this.cache = new Map(); // path -> {etag, body}
    this.failedMove = null; // {path, body, key}: the key a retry of the same move reuses
    this.onSignedOut = null; // called once the API refuses the stored token (this device was signed out)
  }

  get token() {
    return this.storage.getItem(this.prefix + "token");
  }

  get me() {
    const raw = this.storage.getItem(this.prefix + "me");
    return raw ? JSON.parse(raw) : null;
  }

  remember(token, me) {
    this.storage.setItem(this.prefix + "token", token);
    this.storage.setItem(this.prefix + "me", JSON.stringify(me));
  }

  // The time zone saved in the player's notification settings (null: not known yet on this device).
  get zone() {
    return this.storage.getItem(this.prefix + "zone");
  }

  rememberZone(zone) {
    this.storage.setItem(this.prefix + "zone", zone || "");
  }

  rememberMe(me) {
    this.storage.setItem(this.prefix + "me", JSON.stringify(me));
  }

  forget() {
    this.storage.removeItem(this.prefix + "token");
    this.storage.removeItem(this.prefix + "zone");
    this.storage.removeItem(this.prefix + "me");
    this.cache.clear();
  }

  async request(method, path, { body, headers = {}, auth = true } = {}) {
    const all = { ...headers };
    const sent = auth ? this.token : null;
    if (sent) all.Authorization = `Bearer ${sent}`;
    if (body !== undefined) all["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers: all,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store", // our own ETag cache decides; the browser's must not answer for the API
      });
    } catch {
      // The browser's own words ("Failed to fetch") tell a player nothing.
      throw unreachable();
    }
    // The stored token no longer works (signed out from another device, or the account deleted): forget
    // it, so the start screen shows instead of an error on every poll.
    if (response.status === 401 && sent && sent === this.token) {
      this.forget();
      response.signedOut = true;
      this.onSignedOut?.();
    }
    return response;
  }

  // A JSON call outside the ETag cache and the move retries (the account's routes); null for a 204.
  async call(method, path, body, { auth = true } = {}) {
    const response = await this.request(method, path, { body, auth });
    if (!response.ok) throw await problemOf(response);
    return response.status === 204 ? null : response.json();
  }

  // A GET that sends back the ETag it last saw. Returns {body, changed, wait}.
  async poll(path) {
    const seen = this.cache.get(path);
    const response = await this.request("GET", path, {
      headers: seen?.etag ? { "If-None-Match": seen.etag } : {},
    });
    const wait = advertisedSeconds(response.headers);
    if (response.status === 304 && seen) return { body: seen.body, changed: false, wait };
    if (!response.ok) throw await problemOf(response);
    const body = await response.json();
    const etag = response.headers.get("ETag");
    this.cache.set(path, { etag, body });
    return { body, changed: true, wait };
  }

  async get(path) {
    return (await this.poll(path)).body;
  }

  async register(name, device) {
    const created = await this.call("POST", "/players", { name, device }, { auth: false });
    this.remember(created.token, { player_id: created.player_id, name: created.name });
    return created;
  }

  // The code from the mail opens a new session on this device (POST /sessions asked for the mail).
  async signIn(email, code, device) {
    const opened = await this.call("POST", "/sessions/verify", { email, code, device }, { auth: false });
    this.cache.clear();
    this.remember(opened.token, { player_id: opened.player_id, name: opened.name, session_id: opened.session_id });
    return opened;
  }

  async useToken(token) {
    const response = await fetch(this.base + "/players/me", {
      headers: { Authorization: `Bearer ${token}` },
      cache: "no-store",
    });
    if (!response.ok) throw await problemOf(response);
    this.remember(token, await response.json());
  }

  // Every move carries an Idempotency-Key. A network failure or a 5xx is retried with the same key, and
  // if the player tries the very same move again after a failure, that key is reused too: the API then
  // replays the first answer instead of applying the move twice.
  // `given` is a key the caller keeps itself (the new-game form keeps one per filled form).
  async move(path, body = {}, given = null) {
    const sameAsFailed =
      this.failedMove && this.failedMove.path === path && this.failedMove.body === JSON.stringify(body);
    const key = given || (sameAsFailed ? this.failedMove.key : newKey());
    this.failedMove = { path, body: JSON.stringify(body), key };
    let lastError = null;
    for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 400 * 2 ** attempt));
      let response;
      try {
        response = await this.request("POST", path, { body, headers: { "Idempotency-Key": key } });
      } catch (error) {
        lastError = error;
        continue;
      }
      if (response.ok) {
        this.failedMove = null;
        const view = await response.json();
        this.cache.delete(path.replace(/\/(join|leave|start|clue|submissions|votes|nudges|vacation|extend|offer-seat|remove-player)$/, ""));
        // push.js offers notifications after a move (a nudge is not one).
        if (!path.endsWith("/nudges")) window.dispatchEvent(new CustomEvent("dixit:moved", { detail: { path } }));
        return view;
      }
      lastError = await problemOf(response);
      if (response.status < 500 && response.status !== 429) {
        // A definite answer: the same key would only replay it, so a new attempt gets a new key.
        this.failedMove = null;
        break;
      }
    }
    throw lastError;
  }
}
