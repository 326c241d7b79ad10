// What the screens show, worked out from the API's JSON and the local draft. No DOM and no fetch here, so
// `node --test tests/web/` can check every rule of the page without a browser.
//
// The draft is what this player has picked but not sent: {key, chosen: [card ids], clue}. It is never
// changed in place; each change gives a new draft, and the screen redraws from it.

const PHASE_TITLES = {
  lobby: "Lobby",
  storytelling: "The storyteller's turn",
  submitting: "Choosing cards",
  voting: "Voting",
  finished: "Game over",
};

const END_REASONS = {
  target_score: (g) => `Someone reached the target score of ${plural(g.settings?.target_score ?? 30, "point")}.`,
  deck_exhausted: () => "The draw pile ran out: there were not enough cards for another round.",
  everyone_left: () => "Everyone else left the game.",
  abandoned: () => "No round could be scored during a whole turn of storytellers: the game was abandoned.",
};

const idOf = (p) => (typeof p === "string" ? p : p?.player_id);

export function listOf(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Times are told in the player's saved time zone (their notification settings), so that a deadline reads
// the same here as in their mails; until it is known, or if the browser does not know it, the browser's.
let savedZone = null;

export function useTimeZone(zone) {
  savedZone = null;
  if (!zone) return;
  try {
    new Intl.DateTimeFormat([], { timeZone: zone });
    savedZone = zone;
  } catch {
    // An unknown zone: the browser's own is the next best.
  }
}

export const timeZoneOptions = () => (savedZone ? { timeZone: savedZone } : {});

export function timeText(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  return when.toLocaleString([], { dateStyle: "medium", timeStyle: "short", ...timeZoneOptions() });
}

// The planned `you.owes`, or the same thing worked out from waiting_for and the rules.
export function owesOf(game) {
  if (game.you && "owes" in game.you) return game.you.owes;
  const me = game.you?.player_id;
  const round = game.round;
  if (!me || !round || !(round.waiting_for || []).map(idOf).includes(me)) return null;
  const seats = game.players.length;
  if (game.phase === "storytelling") return { move: "clue", count: 1 };
  if (game.phase === "submitting") return { move: "submit", count: round.cards_to_submit ?? (seats === 3 ? 2 : 1) };
  if (game.phase === "voting") {
    let counts = round.votes_allowed;
    if (typeof counts === "number") counts = [counts];
    const rules = game.settings?.rules ?? game.rules;
    counts ??= rules === "odyssey" && seats >= 7 ? [1, 2] : [1];
    return { move: "vote", counts };
  }
  return null;
}

// How many cards the owed move takes: one number for a clue or a submission, the allowed ones for a vote.
export function countsOf(owes) {
  if (!owes) return [];
  if (Array.isArray(owes.counts)) return owes.counts;
  return [owes.count ?? 1];
}

export function pointsOf(result) {
  const points = result.points || {};
  if (Array.isArray(points)) return Object.fromEntries(points.map((p) => [p.player_id, p.points]));
  return points;
}

// Players by name as this player reads them: "you" for themselves, a placeholder for someone who left.
export function namer(game) {
  const names = new Map(game.players.map((p) => [p.player_id, p.name]));
  const nameOf = (id) => (id === game.you?.player_id ? "you" : names.get(id) || "a player who left");
  const NameOf = (id) => {
    const n = nameOf(id);
    return n.charAt(0).toUpperCase() + n.slice(1);
  };
  return { nameOf, NameOf };
}

// --- the draft ---------------------------------------------------------------------------------------

export const emptyDraft = (key = null) => ({ key, chosen: [], clue: "" });

// A draft belongs to one step of one round: a pick made for the clue must not carry over to the vote.
export function draftFor(draft, game) {
  const key = `${game.round?.number}:${game.phase}`;
  return draft.key === key ? draft : emptyDraft(key);
}

// Choosing one card too many lets go of the oldest choice, so a tap always does what it says.
export function withChosen(draft, cardId, max) {
  if (draft.chosen.includes(cardId)) return { ...draft, chosen: draft.chosen.filter((c) => c !== cardId) };
  return { ...draft, chosen: [...draft.chosen, cardId].slice(-max) };
}

export const withClue = (draft, clue) => ({ ...draft, clue });

export const sent = (draft) => ({ ...draft, chosen: [], clue: "" });

export const clueReady = (draft) => draft.chosen.length === 1 && draft.clue.trim() !== "";

export const clueMove = (draft) => ({ card_id: draft.chosen[0], clue: draft.clue.trim() });

export const submitReady = (draft, count) => draft.chosen.length === count;

export const voteReady = (draft, counts) => counts.includes(draft.chosen.length);

export const cardsMove = (draft) => ({ card_ids: draft.chosen });

// --- the game screen ---------------------------------------------------------------------------------

// The game's name, heading every screen of it: its title, else its players ("You, Bob and Cy"), so that a
// player with several games open always knows which one they are in.
export function gameNameOf(game) {
  if (game.settings?.title) return game.settings.title;
  const me = game.you?.player_id;
  const others = game.players.filter((p) => p.player_id !== me).map((p) => p.name);
  return listOf(game.you ? ["You", ...others] : others) || "A game";
}

// Which step of the game a notice was about: an acknowledgement is stale once the game is past it.
export const stepOf = (game) => `${game.round?.number ?? 0}:${game.phase}`;

export function headingOf(game) {
  const title = PHASE_TITLES[game.phase] || game.phase;
  if (game.phase === "lobby" || game.phase === "finished" || !game.round) return title;
  return `Round ${game.round.number} · ${title}`;
}

// The screen's sections, top to bottom. Just after a reveal the new round is at its first step: the result
// is news then, so it goes first.
export function sectionsOf(game) {
  const { phase, last_round: last } = game;
  if (phase === "lobby") return ["lobby", "scores"];
  const revealFirst = Boolean(last) && (phase === "storytelling" || phase === "finished");
  return [
    phase === "finished" ? "ending" : "status",
    revealFirst && "reveal",
    phase !== "finished" && "panel",
    "scores",
    phase !== "finished" && "table",
    last && !revealFirst && "reveal",
    "history",
  ].filter(Boolean);
}

// Which cards panel goes under the status: the one for the owed move, else the table while votes are
// being cast (or a player's own card and vote are shown), else the hand alone.
export function panelOf(game, owes) {
  if (!game.you) return "watching";
  if (owes?.move === "clue") return "clue";
  if (owes?.move === "submit") return "submit";
  if (game.phase === "voting") return "vote";
  return "hand";
}

const waitingOthers = (game) =>
  (game.round?.waiting_for || []).map(idOf).filter((id) => id !== game.you?.player_id);

export function statusText(game, owes, nameOf) {
  if (owes) {
    const youDo = {
      clue: "Your turn: you are the storyteller. Pick a card and give a clue.",
      submit: `Your turn: choose ${countsOf(owes)[0] === 1 ? "1 card that fits" : `${countsOf(owes)[0]} cards that fit`} the clue.`,
      vote: "Your turn: which card is the storyteller's?",
    };
    return youDo[owes.move] || "Your turn.";
  }
  const waiting = waitingOthers(game);
  return waiting.length ? `Waiting for ${listOf(waiting.map(nameOf))}.` : "Waiting for the other players.";
}

// The clue is news once the storyteller has told it; before that, the others learn who is telling.
export function clueLine(game, owes) {
  const teller = game.round.storyteller_id;
  if (game.phase !== "storytelling" && game.round.clue) return { teller, clue: game.round.clue };
  return owes ? null : { teller, clue: null };
}

// "Your clue" and "You are the storyteller" for the storyteller; the name for everyone else.
export function clueLead(line, you, NameOf) {
  const mine = line.teller === you;
  if (line.clue) return mine ? "Your clue: " : `${NameOf(line.teller)}'s clue: `;
  return mine ? "You are the storyteller." : `${NameOf(line.teller)} is the storyteller.`;
}

// A deadline is addressed to whoever owes the move: "Please move" only to the one who does.
export function deadlineText(game, owes, nameOf = (id) => id) {
  if (owes?.deadline) return `Please move by ${timeText(owes.deadline)}.`;
  const deadline = game.round?.deadline;
  if (!deadline) return null;
  const waiting = waitingOthers(game);
  if (waiting.length === 1) return `${capital(nameOf(waiting[0]))} has until ${timeText(deadline)} to move.`;
  return `The others have until ${timeText(deadline)} to move.`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

export function submitHint(draft, count) {
  return `Choose ${plural(count, "card")} (${draft.chosen.length} chosen). Tap a card to see it big.`;
}

export function voteHint(draft, counts) {
  return counts.length > 1
    ? `Vote for ${counts.join(" or ")} cards (${draft.chosen.length} chosen).`
    : "Tap a card to see it big, then vote for it.";
}

// The badges on a table card: the player's own card (which they cannot vote for) and their votes.
export function tableBadges(you, cardId) {
  return [
    (you.submitted || []).includes(cardId) ? "Your card" : null,
    (you.votes || []).includes(cardId) ? "Your vote" : null,
  ].filter(Boolean);
}

export function revealSummary(result, NameOf) {
  const finders = result.cards.find((c) => c.card_id === result.storyteller_card)?.voter_ids || [];
  const guessers = Object.keys(pointsOf(result)).length - 1;
  if (finders.length === 0) return "Nobody found the storyteller's card.";
  if (finders.length >= guessers) return "Everybody found the storyteller's card.";
  return `${listOf(finders.map(NameOf))} found the storyteller's card.`;
}

export function votersText(card, NameOf) {
  const voters = card.voter_ids || [];
  return voters.length ? `Votes: ${listOf(voters.map(NameOf))}` : "No votes";
}

export function pointsText(result, NameOf) {
  return Object.entries(pointsOf(result))
    .map(([id, n]) => `${NameOf(id)} +${n}`)
    .join(", ");
}

export function scoreboard(game) {
  const target = game.settings?.target_score || 30;
  const teller = game.round?.storyteller_id;
  const waiting = new Set((game.round?.waiting_for || []).map(idOf));
  const playing = game.phase !== "lobby" && game.phase !== "finished";
  return {
    heading: game.phase === "lobby" ? "Players" : "Scores",
    target,
    showScores: game.phase !== "lobby",
    rows: game.players.map((p) => ({
      name: p.name,
      you: p.player_id === game.you?.player_id,
      host: p.player_id === game.host_id,
      storyteller: playing && p.player_id === teller,
      toPlay: playing && waiting.has(p.player_id),
      score: p.score,
      meter: Math.min(p.score, target),
    })),
  };
}

export const inviteHash = (gameId, game) =>
  `#/join/${gameId}${game.invite_code ? `/${encodeURIComponent(game.invite_code)}` : ""}`;

export const isHost = (game) => Boolean(game.you) && game.you.player_id === game.host_id;

export const canStart = (game) => game.players.length >= 3;

// What Leave asks in the lobby: whom the host's role passes to (the API gives it to the first seat left),
// or that the game closes when nobody else is in.
export function leaveQuestion(game) {
  const others = game.players.filter((p) => p.player_id !== game.you?.player_id);
  if (others.length === 0) return "Leave this game? Nobody else has joined: it closes.";
  const back = "You can join again with the invite link while a seat is free.";
  if (!isHost(game)) return `Leave this game? ${back}`;
  return `Leave this game? You are its host: ${others[0].name} becomes the host. ${back}`;
}

export function winnerText(game, NameOf) {
  const winners = (game.winners || []).map(idOf);
  if (winners.length === 0) return "The game is over.";
  if (winners.length > 1) return `${listOf(winners.map(NameOf))} share the win!`;
  return winners[0] === game.you?.player_id ? "You win!" : `${NameOf(winners[0])} wins!`;
}

export function endReasonText(game) {
  if (!game.end_reason) return null;
  return END_REASONS[game.end_reason]?.(game) ?? game.end_reason;
}

export function playedHeading(storyteller, count) {
  if (storyteller) return "Your card for the clue";
  return count === 1 ? "The card you played" : `The ${count} cards you played`;
}

// What a player who is done in the voting sees above the table: their own card and their vote, by place.
// One sitting the round out with nothing of theirs shown (a seat taken during the round keeps the old
// player's card to itself) is told when they play again.
export function votedText(you, table, sittingOut = []) {
  const places = (ids) => table.flatMap((c, i) => (ids.includes(c.card_id) ? [`table card ${i + 1}`] : []));
  const votes = places(you.votes || []);
  const own = places(you.submitted || []);
  const parts = [];
  if (votes.length) parts.push(`You voted for ${listOf(votes)}.`);
  if (own.length) parts.push(`Your ${own.length === 1 ? "card is" : "cards are"} ${listOf(own)}.`);
  if (!parts.length && sittingOut.includes(you.player_id)) return "You sit this round out: you play from the next one.";
  return parts.join(" ") || null;
}
