// Every scored round, newest first, behind a disclosure: fetched when first opened, and again when opened
// after the game has moved on.

import { h, replace } from "../dom.js";
import { reveal } from "./reveal.js";

export function history(s, view) {
  const { history: past } = view;
  const details = h("details", { class: "history", open: past.open }, h("summary", {}, "Round history"));
  const body = h("div", {}, past.rounds ? null : h("p", { class: "muted" }, "Loading…"));
  details.append(body);
  const fill = () => {
    const list = [...(past.rounds || [])].reverse();
    replace(
      body,
      list.length
        ? list.map((r) => reveal(r, { heading: `Round ${r.number}`, compact: true }, s, view))
        : h("p", { class: "muted" }, "No round has finished yet."),
    );
  };
  details.addEventListener("toggle", async () => {
    if (await view.openHistory(details.open)) fill();
  });
  if (past.rounds) fill();
  return details;
}
