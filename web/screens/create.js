// A new game: rules, target score, and who can join.

import { h } from "../dom.js";
import { act, title, ui } from "../ui.js";

function choice(name, value, text, checked = false) {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), text);
}

export function createScreen() {
  const form = h(
    "form",
    { class: "card-box", id: "create" },
    h(
      "fieldset",
      {},
      h("legend", {}, "Rules"),
      choice("rules", "classic", " Classic (3–6 players)", true),
      choice("rules", "odyssey", " Odyssey (3–12 players)"),
    ),
    h("label", { for: "target" }, "Play until someone reaches"),
    h(
      "div",
      { class: "row" },
      h("input", { id: "target", name: "target_score", type: "number", min: 1, max: 100, value: 30 }),
      h("span", {}, "points"),
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Who can join"),
      choice("visibility", "private", " Only people I send the invite link to", true),
      choice("visibility", "public", " Anyone (listed in open games)"),
    ),
    h("button", { type: "submit" }, "Create game"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    act(event.submitter || form.querySelector("button"), async () => {
      const game = await ui.api.move("/games", {
        rules: data.get("rules"),
        target_score: Number(data.get("target_score")),
        visibility: data.get("visibility"),
      });
      ui.go(`#/game/${game.game_id}`);
    });
  });
  return [title("New game"), form, h("p", {}, h("a", { href: "#/" }, "Back to your games"))];
}
