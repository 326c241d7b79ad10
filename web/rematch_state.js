// A finished game's rematch, in words: none yet (open one), opened by someone (join it in one tap), or
// one this player is in already (go there). From the rematch lobby's page (GET /games/{id}/preview),
// which the finished game's players may read: null when nobody opened it yet. No DOM here.

import { listOf } from "./state.js";

export function rematchOffer(preview, me) {
  if (!preview) {
    return {
      opened: false,
      text: "The same settings; the other players are told and can join.",
      label: "Play again (rematch)",
    };
  }
  if (preview.phase !== "lobby") {
    return { opened: true, text: "The rematch has started.", label: preview.you_are_in ? "Go to the rematch" : null };
  }
  const names = (preview.seated || []).map((p) => (p.player_id === me ? "you" : p.name));
  const opener = preview.host_id === me ? "You" : preview.host_name;
  const inside = names.length ? ` ${capital(listOf(names))} ${names.length === 1 && names[0] !== "you" ? "is" : "are"} in.` : "";
  if (preview.you_are_in) return { opened: true, text: `${opener} opened a rematch.${inside}`, label: "Go to the rematch" };
  return { opened: true, text: `${opener} opened a rematch.${inside} Join with one tap.`, label: `Join ${opener}'s rematch` };
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
