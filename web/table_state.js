// The no-stall controls of a game in play, worked out from the game JSON and the time: each seat's state
// and time left, and which of vacation, +24 h, offer a seat and remove a player the API would take now.
// A control the API would refuse is not offered. No DOM and no fetch here (`node --test tests/web/`).

import { listOf, timeText } from "./state.js";

const IN_PLAY = new Set(["storytelling", "submitting", "voting"]);
const MIN_PLAYERS = 3;
const MOVE_WORDS = { clue: "the clue", submit: "cards", vote: "a vote" };

const at = (iso) => (iso ? Date.parse(iso) : NaN);

export const inPlay = (game) => IN_PLAY.has(game.phase);

// "2 days 3 h left", "5 h 10 min left", "12 min left"; "out of time" once the deadline passed.
export function timeLeftText(deadline, now) {
  const left = at(deadline) - now;
  if (!Number.isFinite(left)) return "";
  if (left <= 0) return "out of time";
  const minutes = Math.ceil(left / 60000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days) return `${days} day${days === 1 ? "" : "s"}${hours ? ` ${hours} h` : ""} left`;
  if (hours) return `${hours} h${mins ? ` ${mins} min` : ""} left`;
  return `${mins} min left`;
}

const onVacation = (player, now) => at(player.vacation_until) > now;

// The table, seat by seat: what each seat is doing now, and the controls this player may use on it.
export function seatRows(game, now) {
  const me = game.you?.player_id;
  const waiting = new Map((game.round?.waiting || []).map((w) => [w.player_id, w]));
  const extended = new Set(game.round?.extended || []);
  const host = Boolean(game.you) && me === game.host_id && inPlay(game);
  const staying = game.players.filter((p) => !p.leaving).length;
  return game.players.map((p, i) => {
    const owed = waiting.get(p.player_id);
    const facts = [];
    if (owed) facts.push(`owes ${MOVE_WORDS[owed.move] || "a move"}: ${timeLeftText(owed.deadline, now)}`);
    if (onVacation(p, now)) facts.push(`on vacation until ${timeText(p.vacation_until)}`);
    if (p.offered) facts.push("seat offered to a newcomer");
    if (p.leaving) facts.push("leaves at the end of this round");
    else if (p.departed) facts.push("left Dixit (account deleted): their moves are played for them at each deadline");
    else if (p.timed_out) facts.push("missed their last move");
    const mayHost = host && p.player_id !== me && Boolean(p.timed_out) && !p.leaving;
    return {
      playerId: p.player_id,
      seat: i + 1, // what names the seat in the page: player ids stay out of the DOM
      name: p.name,
      you: p.player_id === me,
      facts,
      deadline: owed?.deadline || null,
      // A deleted account never answers: more time for it would only hold the table up.
      extend:
        Boolean(game.you) &&
        Boolean(owed) &&
        p.player_id !== me &&
        !p.departed &&
        !extended.has(p.player_id) &&
        at(owed.deadline) > now,
      offer: mayHost && !p.offered,
      remove: mayHost && staying - 1 >= MIN_PLAYERS,
      offered: Boolean(p.offered),
    };
  });
}

// The vacation this player may still declare: how many days are left, and the lengths to choose from.
// None while a vacation runs (the API refuses a second), once the days are used up, or out of play.
export function vacationOffer(game, now) {
  if (!game.you || !inPlay(game)) return null;
  const mine = game.players.find((p) => p.player_id === game.you.player_id);
  if (!mine || onVacation(mine, now)) return null;
  const left = mine.vacation_days_left ?? 0;
  if (left <= 0) return null;
  return { left, choices: Array.from({ length: left }, (_, i) => i + 1) };
}

// The current vacation of this player, to say so where the offer would be.
export function vacationNow(game, now) {
  const mine = game.you && game.players.find((p) => p.player_id === game.you.player_id);
  if (!mine || !onVacation(mine, now)) return null;
  return `You are on vacation until ${timeText(mine.vacation_until)}: your deadlines here wait for you. ${daysLeftText(mine.vacation_days_left)}`;
}

export function daysLeftText(left) {
  if (!left) return "No vacation days are left in this game.";
  return `${left} vacation day${left === 1 ? " is" : "s are"} left in this game.`;
}

// --- acknowledgements, from the game the API answered with ------------------------------------------

const playerIn = (game, id) => game.players.find((p) => p.player_id === id);

export function vacationAck(game, days) {
  const mine = playerIn(game, game.you?.player_id);
  const until = mine?.vacation_until ? ` until ${timeText(mine.vacation_until)}` : "";
  return `You are on vacation${until} (${days} day${days === 1 ? "" : "s"}): your deadlines in this game wait. ${daysLeftText(mine?.vacation_days_left)}`;
}

export function extendAck(game, playerId) {
  const name = playerIn(game, playerId)?.name || "That player";
  const owed = (game.round?.waiting || []).find((w) => w.player_id === playerId);
  const until = owed ? `: they now have until ${timeText(owed.deadline)}` : "";
  return `${name} has 24 more hours${until}.`;
}

export function offerAck(game, playerId) {
  const name = playerIn(game, playerId)?.name || "The player";
  return `${name}'s seat is offered. Share the seat's link: the first newcomer to open it takes the seat, with its cards and score.`;
}

export function removeAck(game, playerId) {
  const name = playerIn(game, playerId)?.name || "The player";
  return `${name} is removed: they leave the table, with their score, at the end of this round.`;
}

export function removeQuestion(name) {
  return `Remove ${name} from this game? They leave at the end of this round and cannot come back to it.`;
}

// --- nudges ---------------------------------------------------------------------------------------------

// Whom a nudge may remind now (a share of their time has passed, as the API says with `nudge_after`),
// and when the next one may be nudged otherwise.
export function nudgeState(game, now) {
  if (!game.you || !inPlay(game)) return null;
  const others = (game.round?.waiting || []).filter((w) => w.player_id !== game.you.player_id);
  if (!others.length) return null;
  // An API without `nudge_after` leaves the decision to its own limit.
  const fairAt = (w) => (w.nudge_after ? at(w.nudge_after) : -Infinity);
  const ready = others.filter((w) => fairAt(w) <= now);
  if (ready.length) return { ready: true, names: ready.map((w) => w.name) };
  const first = others.reduce((a, b) => (fairAt(a) <= fairAt(b) ? a : b));
  return { ready: false, from: first.nudge_after, text: `You can nudge ${listOf(others.map((w) => w.name))} from ${timeText(first.nudge_after)}.` };
}

// The moments at which what the game screen shows changes with no move: a nudge becoming fair, a
// deadline passing. The screen draws again once one of them is behind it.
export function timeMarks(game) {
  const marks = [];
  for (const w of game.round?.waiting || []) marks.push(at(w.nudge_after), at(w.deadline));
  for (const p of game.players || []) marks.push(at(p.vacation_until));
  return marks.filter(Number.isFinite).sort((a, b) => a - b);
}
