// The games list, worked out from GET /players/me/games: each game named by its title or its players,
// whose move it is, the clue, the deadline in this player's time, and the winners of a finished game.
// No DOM here, so `node --test tests/web/` checks it.

import { listOf, timeText } from "./state.js";

const MOVE_WORDS = { clue: "give the clue", submit: "choose your cards", vote: "vote" };

const seatedOf = (game) => game.seated || [];

function nameIn(game, me) {
  const names = new Map(seatedOf(game).map((p) => [p.player_id, p.name]));
  for (const w of game.waiting || []) names.set(w.player_id, w.name);
  return (id) => (id === me ? "you" : names.get(id) || "a player who left");
}

// "Friday game", else "You, Bob and Cy" (you first, then seat order); an older entry without names keeps
// its short id.
export function gameName(game, me) {
  if (game.title) return game.title;
  const seated = seatedOf(game);
  if (!seated.length) return `Game ${String(game.game_id).slice(0, 8)}`;
  const others = seated.filter((p) => p.player_id !== me).map((p) => p.name);
  const names = seated.some((p) => p.player_id === me) ? ["You", ...others] : others;
  return listOf(names);
}

// The players line under a titled game (an untitled one is named by them already).
export function playersLine(game, me) {
  if (!game.title || !seatedOf(game).length) return null;
  return `With ${listOf(seatedOf(game).filter((p) => p.player_id !== me).map((p) => p.name)) || "nobody yet"}`;
}

// What tells an untitled game from another with the same players: who hosts it and when it last moved.
export function inboxOrigin(game, me) {
  if (game.title) return null;
  const host = game.host_id ? (game.host_id === me ? "you" : nameIn(game, me)(game.host_id)) : null;
  const parts = [];
  if (host) parts.push(`Hosted by ${host}`);
  if (game.updated_at) parts.push(`last change ${timeText(game.updated_at)}`);
  return parts.join(" · ") || null;
}

export function inboxStatus(game, me) {
  const nameOf = nameIn(game, me);
  if (game.phase === "finished") {
    const winners = game.winners || [];
    if (!winners.length) return "Game over";
    if (winners.length === 1 && winners[0] === me) return "Game over: you won!";
    const names = winners.map(nameOf).map((n) => (n === "you" ? "you" : n));
    return `Game over: ${listOf(names)} ${winners.length === 1 ? "won" : "shared the win"}`;
  }
  if (game.phase === "lobby") {
    if (game.your_turn) return "Your turn: start the game";
    return game.host_id === me ? "Waiting for players to join" : "Waiting for the host to start";
  }
  if (game.your_turn) {
    const mine = (game.waiting || []).find((w) => w.player_id === me);
    return mine ? `Your turn: ${MOVE_WORDS[mine.move] || "play"}` : "Your turn";
  }
  const others = (game.waiting || []).filter((w) => w.player_id !== me).map((w) => w.player_id);
  const ids = others.length ? others : (game.waiting_for || []).filter((id) => id !== me);
  return ids.length ? `Waiting for ${listOf(ids.map(nameOf))}` : "Waiting for the other players";
}

// The clue once told, and the deadline of the player's own move in their own time.
export function inboxFacts(game, me) {
  const nameOf = nameIn(game, me);
  const facts = [];
  if (game.round_number && game.phase !== "finished") facts.push(`Round ${game.round_number}`);
  if (game.clue && game.phase !== "finished") {
    const teller = game.storyteller_id === me ? "your" : `${nameOf(game.storyteller_id)}'s`;
    facts.push(`${teller} clue “${game.clue}”`);
  } else if (game.storyteller_id && game.phase === "storytelling") {
    facts.push(game.storyteller_id === me ? "you tell the story" : `${nameOf(game.storyteller_id)} tells the story`);
  }
  if (game.phase === "lobby") facts.push(`${game.player_count ?? seatedOf(game).length} seated`);
  const text = facts.join(" · ");
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
}

export function inboxDeadline(game) {
  return game.your_turn && game.deadline ? `Please move by ${timeText(game.deadline)}` : null;
}

// Your-turn games first; the API's order (most urgent first, newest finished first) within each group.
export const inboxOrder = (games) => [...games].sort((a, b) => Number(Boolean(b.your_turn)) - Number(Boolean(a.your_turn)));

export const yourTurnCount = (games) => games.filter((g) => g.your_turn).length;

export function tabTitle(count) {
  return count ? `(${count}) Your games · Dixit by mail` : "Your games · Dixit by mail";
}
