// Cards on the page: their images, the grids they sit in, and the enlarged view.
//
// Secrecy rule for everything the game screen renders: a card is named only by its position ("card 3 of 7
// in your hand", "table card 2"), and nothing says who owns a table card until the API's reveal does.

import { h, replace } from "./dom.js";

// card_id -> the first image link seen, so that redraws do not refetch the art.
export class CardImages {
  constructor(api) {
    this.api = api;
    this.links = new Map();
    this.decksLoaded = new Set();
  }

  remember(cards) {
    for (const c of cards || []) if (c.image_url && !this.links.has(c.card_id)) this.links.set(c.card_id, c.image_url);
  }

  // Reveal and history cards may come without links (older API): the deck listing has them all.
  async ensure(cardIds, decks) {
    const missing = cardIds.filter((id) => !this.links.has(id));
    if (!missing.length) return;
    for (const deck of decks || []) {
      if (this.decksLoaded.has(deck)) continue;
      this.decksLoaded.add(deck);
      try {
        this.remember((await this.api.get(`/decks/${encodeURIComponent(deck)}/cards`)).cards);
      } catch {
        // Without the listing the reveal still reads, in words.
      }
    }
  }

  src(card) {
    return this.links.get(card.card_id) || card.image_url;
  }

  img(card, alt) {
    const src = this.src(card);
    const img = h("img", { alt, loading: "lazy", decoding: "async" });
    if (src) img.src = src;
    // A remembered link may have expired: fall back to the one this response carried.
    img.addEventListener("error", () => {
      if (card.image_url && img.src !== card.image_url) {
        this.links.set(card.card_id, card.image_url);
        img.src = card.image_url;
      }
    });
    return img;
  }
}

const zoom = () => document.getElementById("zoom");

// Focus goes back to the tile that opened the view, so the next Tab goes on from where the player was.
export function enlarge(images, card, label, actions, returnTo) {
  document.getElementById("zoom-title").textContent = label.charAt(0).toUpperCase() + label.slice(1);
  const img = document.getElementById("zoom-img");
  img.src = images.src(card) || "";
  img.alt = label;
  replace(document.getElementById("zoom-actions"), actions);
  zoom().onclose = () => document.getElementById(returnTo)?.focus();
  zoom().showModal();
}

// A grid of cards; a tap (or Enter) enlarges one, and in the enlarged view it can be chosen. `choose` gets
// the card id; the caller redraws the grid from the new draft.
export function grid(images, cards, { kind, chosen = [], choose = null, unchoosable = new Set(), badges = () => [] }) {
  const n = cards.length;
  const choosable = Boolean(choose);
  return h(
    "ul",
    { class: `cards ${kind}`, "aria-label": kind === "hand" ? "Your hand" : "The table" },
    cards.map((card, i) => {
      const label = kind === "hand" ? `card ${i + 1} of ${n} in your hand` : `table card ${i + 1}`;
      const isChosen = chosen.includes(card.card_id);
      const tileId = `${kind}-${i + 1}`;
      const actions = [];
      if (choosable && unchoosable.has(card.card_id)) {
        actions.push(h("p", { class: "muted" }, "This is your own card: you cannot vote for it."));
      } else if (choosable) {
        const toggle = () => {
          zoom().close();
          choose(card.card_id);
        };
        actions.push(
          h(
            "button",
            { type: "button", class: isChosen ? "secondary" : "", onclick: toggle },
            isChosen ? "Put it back" : "Choose this card",
          ),
        );
      }
      return h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            id: tileId,
            class: `tile${isChosen ? " chosen" : ""}`,
            "aria-pressed": choosable ? String(isChosen) : null,
            onclick: () => enlarge(images, card, label, actions, tileId),
          },
          images.img(card, label),
          isChosen ? h("span", { class: "badge" }, "Chosen") : null,
          badges(card).map((b) => h("span", { class: "badge alt" }, b)),
        ),
      );
    }),
  );
}
