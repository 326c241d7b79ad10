// A scored round: who played each card, who voted for it, and the points. The last round's reveal is
// full-size; the history's are compact, without tile ids (those would repeat across rounds).

import { enlarge } from "../cards.js";
import { h } from "../dom.js";
import { pointsText, revealSummary, votersText } from "../state.js";

export function reveal(result, { heading, compact = false }, { NameOf, game }, view) {
  const { images } = view;
  return h(
    "section",
    { class: `reveal${compact ? " compact" : ""}`, "aria-label": heading },
    h(compact ? "h3" : "h2", {}, heading),
    h("p", {}, `${NameOf(result.storyteller_id)} told `, h("q", {}, result.clue), `. ${revealSummary(result, NameOf)}`),
    h(
      "ul",
      { class: "cards results" },
      result.cards.map((card, i) => {
        const isStory = card.card_id === result.storyteller_card;
        const label = `table card ${i + 1}`;
        const id = compact ? null : `reveal-${i + 1}`;
        return h(
          "li",
          { class: isStory ? "story" : "" },
          h(
            "button",
            { type: "button", class: "tile", id, onclick: () => enlarge(images, card, label, [], id) },
            images.img(card, label),
            isStory ? h("span", { class: "badge" }, "Storyteller") : null,
          ),
          h(
            "p",
            { class: "small" },
            h("strong", {}, card.owner_id === game?.you?.player_id ? "You" : card.owner_name || NameOf(card.owner_id)),
            h("br"),
            votersText(card, NameOf),
          ),
        );
      }),
    ),
    h("p", { class: "points" }, "Points: ", pointsText(result, NameOf)),
  );
}
