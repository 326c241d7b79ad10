// The players (in the lobby) or the scores, with who tells and who is still to play this round.

import { h } from "../dom.js";
import { plural, scoreboard } from "../state.js";

export function scores({ game }) {
  const board = scoreboard(game);
  return h(
    "section",
    { "aria-label": "Scores" },
    h("h2", {}, board.heading),
    h("p", { class: "small muted" }, `First to ${plural(board.target, "point")} wins.`),
    h(
      "ol",
      { class: "scores" },
      board.rows.map((row) =>
        h(
          "li",
          {},
          h(
            "span",
            { class: "name" },
            row.name,
            row.you ? " (you)" : "",
            row.host ? h("span", { class: "tag" }, "host") : null,
            row.storyteller ? h("span", { class: "tag" }, "storyteller") : null,
            row.toPlay ? h("span", { class: "tag wait" }, "to play") : null,
          ),
          board.showScores ? h("span", { class: "score" }, String(row.score)) : null,
          board.showScores
            ? h("meter", { min: 0, max: board.target, value: row.meter, "aria-hidden": "true" })
            : null,
        ),
      ),
    ),
  );
}
