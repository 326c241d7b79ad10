// Table talk in words, worked out from the API's answers: which lines show and how, whether the table may
// talk now and when again, and the reactions to a reveal. No DOM and no fetch here (`node --test
// tests/web/`); web/talk.js draws it. Every text is a player's own words: it is only ever set as text.

export const MAX_MESSAGE_LENGTH = 300; // characters once trimmed and NFC-normalised, as the API counts them
export const PAGE_SIZE = 20; // the last messages the panel shows

// The fixed set (dixit.table_talk.REACTIONS), each in a word: pictures (emoji) depend on the phone's
// fonts, and a word reads the same to everyone, a screen reader included.
export const REACTIONS = [
  { reaction: "laugh", symbol: "Ha ha", name: "laugh" },
  { reaction: "wow", symbol: "Wow", name: "wow" },
  { reaction: "love", symbol: "Love it", name: "love" },
  { reaction: "clever", symbol: "Clever", name: "clever" },
  { reaction: "oops", symbol: "Oops", name: "oops" },
];

export const REPORT_REASONS = [
  { reason: "spoiler", label: "Gives a card away" },
  { reason: "abuse", label: "Abusive" },
  { reason: "spam", label: "Spam" },
  { reason: "other", label: "Something else" },
];

const SECRET_PHASES = new Set(["submitting", "voting"]);

// What the rule says (dixit.table_talk.talk_window) for the game as this page last saw it: the panel
// shows it at once when the phase changes, before the next page of messages says the same.
export function windowOf(game) {
  const setting = game?.settings?.table_talk || "between_rounds";
  if (setting === "off") return { open: false, reopens: "never" };
  if (setting === "between_rounds" && SECRET_PHASES.has(game?.phase)) return { open: false, reopens: "at_reveal" };
  return { open: true, reopens: null };
}

// A refused message's problem as the talk it tells of; null for any other problem.
export function windowOfRefusal(error) {
  if (error?.code === "table_talk_closed") return { open: false, reopens: "at_reveal" };
  if (error?.code === "table_talk_off") return { open: false, reopens: "never" };
  return null;
}

// Why the box is closed and when it opens again; "" while the table may talk.
export function closedText(talk) {
  if (!talk || talk.open) return "";
  if (talk.reopens === "never") return "Table talk is off in this game.";
  return "Talk opens again at the reveal: while cards are chosen and votes cast, a word could give a card away.";
}

// How many characters are left, counted as the API counts them.
export function charactersLeft(text) {
  return MAX_MESSAGE_LENGTH - [...String(text || "").normalize("NFC").trim()].length;
}

export function canSend(text, talk) {
  const left = charactersLeft(text);
  return Boolean(talk?.open) && left >= 0 && left < MAX_MESSAGE_LENGTH;
}

// "12:04", or "3 Dec, 12:04" for an older day (in the zone the page shows times in).
export function timeOf(iso, now = Date.now(), timeZone = undefined) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const day = (d) => d.toLocaleDateString("en-GB", { timeZone });
  const clock = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone });
  if (day(at) === day(new Date(now))) return clock;
  return `${at.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone })}, ${clock}`;
}

// The lines to show, oldest first, so the newest sits at the bottom beside the box, as chats read.
// A muted (or blocked) player's messages are left out entirely: the API marks them hidden by "you", and
// `muted` holds whom this page muted since. A message the host hid keeps its place, shown as hidden.
export function talkLines(messages, { me = null, muted = new Set(), host = false } = {}) {
  return [...(messages || [])]
    .filter((m) => m.hidden_by !== "you" && !muted.has(m.author_id))
    .sort((a, b) => (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0))
    .map((m) => {
      const mine = m.author_id === me;
      const hiddenByHost = m.hidden_by === "host";
      let text = m.text;
      if (hiddenByHost) text = "Hidden by the host.";
      else if (text === null || text === undefined) text = "Deleted.";
      return {
        id: m.message_id,
        authorId: m.author_id,
        who: m.author_name,
        text,
        hidden: hiddenByHost,
        gone: !hiddenByHost && (m.text === null || m.text === undefined),
        mine,
        // Only the host is shown that a message was reported, and only they may hide it.
        reported: Boolean(host && m.reported && !hiddenByHost),
        canReport: Boolean(me) && !mine && !hiddenByHost && m.text !== null && m.text !== undefined,
        postedAt: m.posted_at,
      };
    });
}

// The reactions to one target (a revealed round, "round-<n>"), every one of the fixed set with its count.
export function reactionRow(reactions, target) {
  const found = (reactions || []).find((r) => r.target === target);
  return REACTIONS.map(({ reaction, symbol, name }) => {
    const count = found?.counts?.[reaction] || 0;
    const mine = found?.yours === reaction;
    return { reaction, symbol, count, mine, label: `${name}, ${count} ${count === 1 ? "reaction" : "reactions"}${mine ? ", yours" : ""}` };
  });
}

// Who else sits at the table, with whether this page's player muted or blocked them.
export function otherPlayers(game, { muted = new Set(), blocked = new Set() } = {}) {
  const me = game?.you?.player_id;
  return (game?.players || [])
    .filter((p) => p.player_id !== me)
    .map((p) => ({ id: p.player_id, name: p.name, muted: muted.has(p.player_id), blocked: blocked.has(p.player_id) }));
}

// Whether the panel should ask for the messages again: a new game version, or a while since it last did.
export const REFRESH_MS = 15_000;
export function shouldRefresh(last, game, now) {
  if (!last) return true;
  return last.version !== game.version || now - last.at >= REFRESH_MS;
}
