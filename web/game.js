// The game screen: it holds the latest game JSON, the draft and the round history, polls for changes,
// sends moves, and draws everything again through render() whenever one of them changes.

import { CardImages } from "./cards.js";
import { h, replace } from "./dom.js";
import { render } from "./render.js";
import { draftFor, emptyDraft, sent, withChosen, withClue } from "./state.js";
import { act, ui } from "./ui.js";

export function gameScreen(gameId) {
  const { api } = ui;
  const root = h("div", { class: "game" }, h("p", { class: "muted" }, "Loading the game…"));
  const images = new CardImages(api);
  const history = { open: false, rounds: null, version: null };
  let game = null;
  let draft = emptyDraft();

  function show(next) {
    game = next;
    images.remember(next.you?.hand);
    images.remember(next.round?.table);
  }

  function draw() {
    draft = draftFor(draft, game);
    replace(root, render(game, draft, view));
    root.dataset.phase = game.phase;
    root.dataset.version = String(game.version);
    // An open history may be out of date now: its toggle handler fetches it again when it is.
    if (history.open) root.querySelector("details.history")?.dispatchEvent(new Event("toggle"));
  }

  // What the screens' controls do. Each changes the draft or the game, then the whole screen is drawn again.
  const view = {
    gameId,
    images,
    history,
    choose(cardId, max) {
      draft = withChosen(draft, cardId, max);
      draw();
    },
    // Typing draws nothing, so the field keeps its caret and the phone its keyboard; the caller updates its
    // send button from the draft this returns.
    typeClue(text) {
      draft = withClue(draft, text);
      return draft;
    },
    // The move's body is taken from the draft as it is at the click, not as it was drawn.
    send(button, path, moveOf = () => ({})) {
      return act(button, async () => {
        const next = await api.move(path, moveOf(draft));
        draft = sent(draft);
        show(next);
        draw();
      });
    },
    // Whether the history is there to show: it is fetched again only once the game has moved on.
    async openHistory(open) {
      history.open = open;
      if (!open) return false;
      if (history.version !== game.version) {
        try {
          const answer = await api.get(`/games/${gameId}/rounds`);
          history.rounds = answer.rounds || [];
          history.version = game.version;
          const cardIds = history.rounds.flatMap((r) => r.cards.map((c) => c.card_id));
          await images.ensure(cardIds, game.settings?.decks);
          for (const r of history.rounds) images.remember(r.cards);
        } catch (error) {
          ui.showError(error);
          return false;
        }
      }
      return true;
    },
  };

  ui.poll(async () => {
    const { body, changed, wait } = await api.poll(`/games/${gameId}`);
    if (changed || !game) {
      show(body);
      if (body.last_round) {
        images.remember(body.last_round.cards);
        await images.ensure(body.last_round.cards.map((c) => c.card_id), body.settings?.decks);
      }
      draw();
    }
    // A finished game changes no more: look again now and then only, in case the API says otherwise.
    return game.phase === "finished" ? Math.max(wait, 60) : wait;
  });
  return [root];
}
