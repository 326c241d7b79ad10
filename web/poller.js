// Polls while the page is visible, at the interval the API advertises; catches up at once when the
// player comes back to the page, and backs off while the server cannot be reached.

const MAX_BACKOFF_SECONDS = 60;

export class Poller {
  constructor(tick, onError) {
    this.tick = tick; // async () => seconds to wait before the next tick
    this.onError = onError;
    this.timer = null;
    this.running = false;
    this.failures = 0;
    this.stops = []; // what ends with this poller (a screen's live channel)
    this.wake = () => {
      if (!document.hidden) this.now();
    };
  }

  start() {
    this.running = true;
    document.addEventListener("visibilitychange", this.wake);
    window.addEventListener("focus", this.wake);
    window.addEventListener("online", this.wake);
    this.now();
  }

  // `stop` runs when this poller stops (the screen is left).
  also(stop) {
    this.stops.push(stop);
  }

  stop() {
    for (const stop of this.stops.splice(0)) stop();
    this.running = false;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.wake);
    window.removeEventListener("focus", this.wake);
    window.removeEventListener("online", this.wake);
  }

  async now() {
    if (!this.running) return;
    clearTimeout(this.timer);
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    let wait;
    try {
      wait = await this.tick();
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      wait = Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** this.failures);
      this.onError?.(error);
    }
    this.busy = false;
    if (!this.running) return;
    if (this.again) {
      this.again = false;
      this.now();
      return;
    }
    // Hidden pages do not poll at all; "visibilitychange" wakes them.
    if (!document.hidden) this.timer = setTimeout(() => this.now(), wait * 1000);
  }
}
