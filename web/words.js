// What the client says in words: problems by their stable code, the acknowledgement of each move, the
// clue field's counter, and card descriptions. Pure, so `node --test tests/web/` checks every sentence.

export const CLUE_LIMIT = 200;

// The API's `code` is what logic keys on; these are what a person reads for it. A code not listed here
// shows the API's detail, made into a sentence.
const PROBLEMS = {
  bad_invite_code: "That invite link is not right for this game. Ask the host for the link again.",
  invite_required: "This game is private: you need the invite link the host shares.",
  game_not_found: "There is no such game. It may have been removed, or the link is cut short.",
  not_a_member: "This game is private: only its players can see it.",
  game_full: "This game is full: every seat is taken.",
  game_started: "This game has already started: no one can join it now.",
  game_finished: "This game is over.",
  already_joined: "You are already in this game.",
  not_host: "Only the host can do that.",
  not_enough_players: "At least 3 players are needed to start.",
  wrong_phase: "The game has moved on since this page was drawn. Here it is as it is now.",
  stale_version: "The game has moved on since this page was drawn. Here it is as it is now.",
  not_storyteller: "Only the storyteller gives the clue this round.",
  card_not_in_hand: "That card is no longer in your hand.",
  card_not_on_table: "That card is not on the table.",
  own_card_vote: "You cannot vote for your own card.",
  already_submitted: "Your cards are already on the table.",
  already_voted: "Your vote is already in.",
  storyteller_cannot_submit: "The storyteller does not add cards this round.",
  storyteller_cannot_vote: "The storyteller does not vote this round.",
  wrong_card_count: "That is not the number of cards this move takes.",
  blank_clue: "Write a clue first.",
  clue_too_long: `A clue has at most ${CLUE_LIMIT} characters.`,
  nothing_to_nudge: "The game is not waiting on anyone but you.",
  nudge_too_soon: "The players were reminded a short while ago.",
  rate_limited: "That was a lot at once. Wait a moment, then try again.",
  decks_too_small: "These decks have too few cards for that many seats. Add a deck or choose fewer seats.",
  unknown_deck: "One of the chosen decks is not available.",
  too_many_personal_tokens: "You hold 20 personal tokens: revoke one before making another.",
  blank_token_name: "Give the token a name: what you call the program that will hold it.",
  insufficient_scope: "This token was not given the right to do that.",
  app_not_found: "That app was already revoked.",
  invalid_redirect_uri:
    "This app asked to send you back to an address that is not allowed, so nothing was sent to it. Do not sign in to this app.",
  invalid_client_id: "This app's name hides or garbles text, so it cannot be shown safely. Do not sign in to this app.",
  pkce_s256_required: "This app did not protect its request (PKCE S256), so it cannot be approved.",
  invalid_code_challenge: "This app's request is damaged (its code challenge), so it cannot be approved.",
  unknown_scope: "This app asked for a right that does not exist.",
  scope_not_grantable: "This app asked to manage your account itself, which no app may do.",
  no_scopes: "This app asked for nothing it could do.",
  unsupported_response_type: "This app asked in a way this service does not support.",
  invalid_state: "This app's request is damaged (its state), so it cannot be approved.",
};

function sentence(text) {
  const t = String(text ?? "").trim();
  if (!t) return t;
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function problemWords(code, detail) {
  return PROBLEMS[code] || sentence(detail);
}

// How long to wait, in words, from seconds (a 429's Retry-After).
export function waitWords(seconds) {
  const s = Math.max(1, Math.ceil(Number(seconds) || 0));
  if (s < 60) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? "" : "s"}`;
  const h = Math.round(m / 60);
  return `${h} hour${h === 1 ? "" : "s"}`;
}

const andList = (names) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

// Truthful: a player with no address, device or browser to hear it on (the API's `unreachable`) is not
// said to be reminded.
export function nudgeWords(answer, nameOf) {
  const unreachable = new Set(answer.unreachable || []);
  const ids = answer.nudged || [];
  if (!ids.length) return "Nobody needed a reminder.";
  const reached = ids.filter((id) => !unreachable.has(id)).map(nameOf);
  const silent = ids.filter((id) => unreachable.has(id)).map(nameOf);
  const parts = [];
  if (reached.length) parts.push(`Reminded ${andList(reached)}.`);
  if (silent.length) {
    const one = silent.length === 1;
    parts.push(
      `${andList(silent)} ${one ? "has" : "have"} no way to be reached; they will see it when they open the game.`,
    );
  }
  return parts.join(" ");
}

export function nudgeRefusal(error) {
  if (error.status === 429 || error.code === "nudge_too_soon") {
    const wait = error.retryAfter ? ` You can nudge again in ${waitWords(error.retryAfter)}.` : "";
    return `The players were reminded a short while ago.${wait}`;
  }
  return error.message;
}

// The words after a move, while the player waits: what they did, and what happens next.
export function ackText(move, sentMove, game) {
  if (move === "clue") return `Your clue is told: “${sentMove.clue}”. The others now choose cards that fit it.`;
  if (move === "submit") {
    const n = sentMove.card_ids.length;
    const which = n === 1 ? "Your card is" : `Your ${n} cards are`;
    // Said of the game as the move left it: the last card in opens the vote at once.
    const next = game?.phase === "voting" ? "Everyone has played: the vote is open." : "The votes come once everyone has played.";
    return `${which} on the table, face down. ${next}`;
  }
  if (move === "vote") {
    const n = sentMove.card_ids.length;
    const next = {
      voting: " The reveal comes once everyone has voted.",
      finished: " That was the last vote: the game is over.",
    }[game?.phase] ?? " Everyone has voted: here is the reveal.";
    return `Your vote${n === 1 ? " is" : "s are"} in.${next}`;
  }
  if (move === "start") return "The game has started: the cards are dealt.";
  return "Done.";
}

export function clueCounter(text) {
  const used = [...String(text ?? "")].length;
  const left = CLUE_LIMIT - used;
  if (left <= 0) return { text: `${CLUE_LIMIT} of ${CLUE_LIMIT} characters: that is as long as a clue can be.`, full: true };
  return { text: `${used} of ${CLUE_LIMIT} characters`, full: false };
}

// A card's alt text: the API's description of the picture; without one (an older API, a custom card not
// described), a plain "a card" and where it sits, so that the text never pretends to describe the picture.
export function cardAlt(card, position) {
  const alt = String(card?.alt ?? "").trim();
  if (alt) return alt;
  return `A card with no description (${position})`;
}
