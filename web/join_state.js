// The join page's words, from GET /games/{id}/preview: what the game is, and whether it can be joined.

import { listOf } from "./state.js";

const RULES = { classic: "Classic (3–6 players)", odyssey: "Odyssey (3–12 players)" };

export function previewFacts(preview) {
  const s = preview.settings || {};
  const names = (preview.seated || []).map((p) => p.name);
  const policy = {
    wait: "the game waits, with reminders",
    skip: "a silent player is skipped",
  }[s.timeout_policy] || "a random card or vote is played for a silent player, scoring nothing";
  return [
    ["Host", preview.host_name],
    ["Players", `${listOf(names)} (${names.length} of ${s.max_players})`],
    ["Rules", RULES[s.rules] || s.rules],
    ["Play until", `someone reaches ${s.target_score} points`],
    ["Each move", `${s.move_timeout_hours} hour${s.move_timeout_hours === 1 ? "" : "s"}; then ${policy}`],
    // Seats only where they can be taken: a lobby's free ones, a running game's offered ones.
    preview.phase === "lobby" ? ["Free seats", String(preview.free_seats)] : null,
    !["lobby", "finished"].includes(preview.phase) && preview.offered_seats > 0 ? ["Offered seats", String(preview.offered_seats)] : null,
  ].filter(Boolean);
}

export function previewVerdict(preview) {
  if (preview.phase === "finished") return { joinable: false, text: "This game is over: it cannot be joined." };
  if (preview.phase !== "lobby" && preview.offered_seats > 0) {
    return {
      joinable: true,
      seat: true,
      text: "This game is under way and the host offers a seat: join to take it, with its cards, its score and its place in the round.",
    };
  }
  if (preview.phase !== "lobby") {
    return { joinable: false, text: "This game has already started: no one can join it now." };
  }
  if (preview.free_seats <= 0) return { joinable: false, text: "This game is full: every seat is taken." };
  const seats = preview.free_seats === 1 ? "1 seat is" : `${preview.free_seats} seats are`;
  return { joinable: true, text: `${seats} free. Join, and the host starts the game once everyone is in.` };
}
