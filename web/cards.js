// Cards on the page: their images, the grids they sit in, and the enlarged view.
//
// Secrecy rule for everything the game screen renders: a card is named by its position ("card 3 of 7 in
// your hand", "table card 2") and by the API's description of its picture (`alt`, the same for every
// player), and nothing says who owns a table card until the API's reveal does.

import { h, replace } from "./dom.js";
import { cardAlt } from "./words.js";

// card_id -> the first image link seen, so that redraws do not refetch the art.
export class CardImages {
  constructor(api) {
    this.api = api;
    this.links = new Map();
    this.alts = new Map(); // card_id -> the API's description of its picture
    this.decksLoaded = new Set();
  }

  remember(cards) {
    for (const c of cards || []) {
      if (c.image_url && !this.links.has(c.card_id)) this.links.set(c.card_id, c.image_url);
      if (c.alt) this.alts.set(c.card_id, c.alt);
    }
  }

  // A card played from the hand comes back from the API as an id alone: its picture and words are the
  // ones seen while it was held.
  card(cardId) {
    return { card_id: cardId, image_url: this.links.get(cardId), alt: this.alts.get(cardId) };
  }

  alt(card) {
    return card.alt || this.alts.get(card.card_id);
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

  // `position` says where the card sits ("table card 2"): the alt is the picture's description, else
  // says plainly that there is none.
  img(card, position) {
    const src = this.src(card);
    const img = h("img", { alt: cardAlt({ alt: this.alt(card) }, position), loading: "lazy", decoding: "async" });
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
  img.alt = cardAlt({ alt: images.alt(card) }, label);
  // The description is read out with the dialog, and shown under the picture for everyone.
  const words = document.getElementById("zoom-alt");
  if (words) words.textContent = images.alt(card) || "";
  replace(document.getElementById("zoom-actions"), actions);
  zoom().onclose = () => document.getElementById(returnTo)?.focus();
  zoom().showModal();
}

const LABELS = {
  hand: (i, n) => `card ${i} of ${n} in your hand`,
  table: (i) => `table card ${i}`,
  played: (i, n) => (n === 1 ? "the card you played" : `card ${i} of the ${n} you played`),
};
const GRID_NAMES = { hand: "Your hand", table: "The table", played: "What you played" };

// A grid of cards; a tap (or Enter) enlarges one, and in the enlarged view it can be chosen. `choose` gets
// the card id; the caller redraws the grid from the new draft.
export function grid(images, cards, { kind, chosen = [], choose = null, unchoosable = new Set(), badges = () => [] }) {
  const n = cards.length;
  const choosable = Boolean(choose);
  return h(
    "ul",
    { class: `cards ${kind}`, "aria-label": GRID_NAMES[kind] },
    cards.map((card, i) => {
      const label = LABELS[kind](i + 1, n);
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
          h("span", { class: "sr-only" }, `${label.charAt(0).toUpperCase()}${label.slice(1)}: `),
          images.img(card, label),
          isChosen ? h("span", { class: "badge" }, "Chosen") : null,
          badges(card).map((b) => h("span", { class: "badge alt" }, b)),
        ),
      );
    }),
  );
}
