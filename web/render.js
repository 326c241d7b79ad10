// The game screen as a function of the game JSON and the draft: render(game, draft, view) returns its
// elements, top to bottom. `view` (from game.js) is only what the controls do when used; which sections
// show, and what they say, comes from state.js. The secrecy rule for all of it is at the top of cards.js.

import { h } from "./dom.js";
import { cluePanel } from "./screens/clue.js";
import { ending } from "./screens/finished.js";
import { handPanel, watching } from "./screens/hand.js";
import { history } from "./screens/history.js";
import { lobby } from "./screens/lobby.js";
import { reveal } from "./screens/reveal.js";
import { scores } from "./screens/scores.js";
import { status } from "./screens/status.js";
import { submitPanel } from "./screens/submit.js";
import { table } from "./screens/table.js";
import { votePanel } from "./screens/vote.js";
import { gameNameOf, headingOf, namer, owesOf, panelOf, sectionsOf } from "./state.js";
import { title } from "./ui.js";

const PANELS = { watching, clue: cluePanel, submit: submitPanel, vote: votePanel, hand: handPanel };

const SECTIONS = {
  lobby,
  status,
  ending,
  panel: (s, view) => PANELS[panelOf(s.game, s.owes)](s, view),
  reveal: (s, view) => reveal(s.game.last_round, { heading: `Round ${s.game.last_round.number} revealed` }, s, view),
  scores,
  table,
  history,
};

export function render(game, draft, view) {
  const owes = owesOf(game);
  const name = gameNameOf(game);
  const step = headingOf(game);
  const parts = [title(name), h("p", { class: "step", id: "step" }, step)];
  document.title = `${name} · ${step} · Dixit by mail`;
  // Seen from another tab, or in the phone's app switcher.
  if (owes) document.title = `Your turn · ${document.title}`;
  const s = { game, draft, owes, ...namer(game) };
  for (const section of sectionsOf(game)) parts.push(SECTIONS[section](s, view));
  parts.push(h("p", {}, h("a", { href: "#/" }, "Back to your games")));
  return parts;
}
