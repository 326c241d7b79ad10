// The live channel (docs/live.md): while a game is on screen, a WebSocket says when it changed, and the
// screen fetches its own view at once (with its ETag: an unchanged view is a 304). Nothing secret comes
// over the socket, only "this changed, version N".
//
// Polling stays the fallback: while the socket is not open (no live channel here, a network that blocks
// WebSockets, a closed connection) the screen polls as it always did, and the socket is opened again
// with backoff. While it is open, polling goes on at the pace the API advertises (three hours deployed),
// a safety net for a lost message, which also refreshes what the socket does not tell yet (the table
// talk). `?poll=off` in the page's address turns polling off (a test proving that the socket alone
// keeps the screen current).
//
// Message types are an open set: `game.changed` is handled here; other features subscribe with
// `on(type, handler)` (table talk's `messages.changed`), and a type nobody handles is ignored.

const MAX_BACKOFF_SECONDS = 60;
const NEVER_SECONDS = 24 * 3600;

export function pollingOff() {
  return new URLSearchParams(window.location.search).get("poll") === "off";
}

export class LiveGame {
  constructor(api, gameId, onChange) {
    this.api = api;
    this.gameId = gameId;
    this.onChange = onChange; // () => void: fetch the view now
    this.handlers = new Map([["game.changed", (m) => m.game_id === gameId && onChange()]]);
    this.socket = null;
    this.watching = false;
    this.stopped = false;
    this.failures = 0;
    this.timer = null;
  }

  on(type, handler) {
    this.handlers.set(type, handler);
    return this;
  }

  // How long the poller waits before its next look, given the wait the API advertised.
  wait(advertised) {
    return pollingOff() ? NEVER_SECONDS : advertised;
  }

  start() {
    if (typeof WebSocket === "undefined") return this; // polling alone
    this.open();
    return this;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, "screen closed");
    this.socket = null;
    this.mark(false);
  }

  // `data-live="watching"` on the page while the socket watches this game (for styles and tests).
  mark(watching) {
    this.watching = watching;
    if (watching) document.body.dataset.live = "watching";
    else delete document.body.dataset.live;
  }

  async open() {
    if (this.stopped) return;
    let ticket;
    try {
      ticket = await this.api.call("POST", "/live/tickets");
    } catch (error) {
      if (!error.signedOut) this.again();
      return;
    }
    if (!ticket.url || this.stopped) return; // this deployment has no live channel: polling alone
    const socket = new WebSocket(`${ticket.url}?ticket=${encodeURIComponent(ticket.ticket)}`);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ action: "watch", game_id: this.gameId }));
    socket.onmessage = (event) => this.heard(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      const was = this.watching;
      this.mark(false);
      this.socket = null;
      if (this.stopped) return;
      if (was) this.onChange(); // back to polling: look now, then at the advertised pace
      this.again();
    };
  }

  heard(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "watching" && message.game_id === this.gameId) {
      this.mark(true);
      this.failures = 0;
      this.onChange(); // anything that changed while the socket was opening
      return;
    }
    if (message.type === "error") {
      // Not allowed to watch (or not known any more): this socket is no use for this screen.
      this.socket?.close(1000, message.code);
      return;
    }
    this.handlers.get(message.type)?.(message);
  }

  again() {
    this.failures += 1;
    const seconds = Math.min(MAX_BACKOFF_SECONDS, 2 ** this.failures);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), seconds * 1000 * (0.5 + Math.random() / 2));
  }
}
