// The shuffled table while votes are cast: choosable for a player who still owes a vote, and marked with
// the player's own card and votes; the hand below it.

import { grid } from "../cards.js";
import { h } from "../dom.js";
import { cardsMove, countsOf, tableBadges, votedText, voteHint, voteReady } from "../state.js";
import { handGrid, sendButton } from "./hand.js";

export function votePanel(s, view) {
  const { game, draft, owes } = s;
  const you = game.you;
  const voting = owes?.move === "vote";
  const counts = voting ? countsOf(owes) : [];
  const max = Math.max(1, ...counts);
  const table = grid(view.images, game.round?.table || [], {
    kind: "table",
    chosen: draft.chosen,
    choose: voting ? (cardId) => view.choose(cardId, max) : null,
    unchoosable: new Set(you.submitted || []),
    badges: (card) => tableBadges(you, card.card_id),
  });
  const path = `/games/${view.gameId}/votes`;
  return [
    h("h2", {}, "The table"),
    voting ? h("p", {}, voteHint(draft, counts)) : h("p", { id: "your-votes" }, votedText(you, game.round?.table || [], game.round?.sitting_out || [])),
    table,
    voting ? sendButton("Vote", voteReady(draft, counts), (button) => view.send(button, path, cardsMove, "vote")) : null,
    h("h2", {}, "Your hand"),
    handGrid(s, view),
  ];
}
