// Time and seats, while a game is in play: each seat's time left and state, +24 h for a player the game
// waits on, the host's offer-a-seat and remove for a player who timed out, and this player's vacation.
// table_state.js decides what shows; each control is explained where it appears.

import { h } from "../dom.js";
import { inviteHash } from "../state.js";
import {
  daysLeftText,
  extendAck,
  offerAck,
  removeAck,
  removeQuestion,
  seatRows,
  vacationAck,
  vacationNow,
  vacationOffer,
} from "../table_state.js";
import { ui } from "../ui.js";
import { linkField } from "./lobby.js";

function seatItem(row, game, view) {
  const { gameId } = view;
  const buttons = [];
  if (row.extend) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          id: `extend-${row.seat}`,
          onclick: (e) =>
            view.absence(e.currentTarget, `/games/${gameId}/extend`, { player_id: row.playerId }, (next) =>
              extendAck(next, row.playerId),
            ),
        },
        `+24 h for ${row.name}`,
      ),
    );
  }
  if (row.offer) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          id: `offer-${row.seat}`,
          onclick: (e) =>
            view.absence(e.currentTarget, `/games/${gameId}/offer-seat`, { player_id: row.playerId }, (next) =>
              offerAck(next, row.playerId),
            ),
        },
        `Offer ${row.name}'s seat`,
      ),
    );
  }
  if (row.remove) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "secondary danger",
          id: `remove-${row.seat}`,
          onclick: (e) => {
            if (!window.confirm(removeQuestion(row.name))) return;
            view.absence(e.currentTarget, `/games/${gameId}/remove-player`, { player_id: row.playerId }, (next) =>
              removeAck(next, row.playerId),
            );
          },
        },
        `Remove ${row.name}`,
      ),
    );
  }
  return h(
    "li",
    { "data-seat": String(row.seat) },
    h("strong", {}, row.name, row.you ? " (you)" : ""),
    row.facts.length ? h("span", { class: "small" }, ` · ${row.facts.join(" · ")}`) : null,
    buttons.length ? h("div", { class: "row seat-actions" }, buttons) : null,
    row.offered && game.you?.player_id === game.host_id
      ? h(
          "div",
          { class: "seat-link" },
          linkField(ui.link(inviteHash(gameId, game)), `Link to ${row.name}'s seat: the first newcomer to open it takes the seat`, {
            id: `seat-link-${row.seat}`,
            shareTitle: "Take a seat in my Dixit game",
          }),
        )
      : null,
  );
}

function vacationForm(game, view) {
  const now = Date.now();
  const running = vacationNow(game, now);
  if (running) return h("p", { id: "vacation-state" }, running);
  const offer = vacationOffer(game, now);
  const mine = game.players.find((p) => p.player_id === game.you?.player_id);
  if (!offer) return h("p", { class: "small muted", id: "vacation-state" }, daysLeftText(mine?.vacation_days_left));
  const days = h(
    "select",
    { id: "vacation-days" },
    offer.choices.map((n) => h("option", { value: String(n) }, `${n} day${n === 1 ? "" : "s"}`)),
  );
  const take = h("button", { type: "button", class: "secondary", id: "vacation" }, "Take a vacation");
  take.addEventListener("click", () => {
    const n = Number(days.value);
    view.absence(take, `/games/${view.gameId}/vacation`, { days: n }, (next) => vacationAck(next, n));
  });
  return h(
    "div",
    { class: "vacation" },
    h("h3", {}, "Going away?"),
    h(
      "p",
      { class: "small" },
      `A vacation stops your deadlines in this game while you are away; any move of yours ends it early. ${daysLeftText(offer.left)}`,
    ),
    h("div", { class: "row" }, h("label", { for: "vacation-days" }, "How long"), days, take),
  );
}

export function table({ game }, view) {
  const rows = seatRows(game, Date.now());
  const host = game.you?.player_id === game.host_id;
  const explain = [
    rows.some((r) => r.extend) ? "+24 h gives a player the game waits on a day more, once per move." : null,
    host && rows.some((r) => r.offer || r.remove)
      ? "A player who missed their last move or left Dixit: offer their seat to a newcomer (cards and score included), or remove them at the end of the round."
      : null,
  ].filter(Boolean);
  return h(
    "section",
    { id: "table", "aria-labelledby": "table-heading" },
    h("h2", { id: "table-heading" }, "Time and seats"),
    explain.length ? h("p", { class: "small muted" }, explain.join(" ")) : null,
    h("ul", { class: "seats" }, rows.map((row) => seatItem(row, game, view))),
    game.you ? vacationForm(game, view) : null,
  );
}
