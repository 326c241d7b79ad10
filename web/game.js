// The game screen: it holds the latest game JSON, the draft and the round history, polls for changes,
// sends moves, and draws everything again through render() whenever one of them changes.

import { CardImages } from "./cards.js";
import { h, replace } from "./dom.js";
import { LiveGame } from "./live.js";
import { render } from "./render.js";
import { countsOf, draftFor, emptyDraft, owesOf, sent, stepOf, withChosen, withClue } from "./state.js";
import { timeMarks } from "./table_state.js";
import { talkPanel } from "./talk.js";
import { act, focusOn, ui } from "./ui.js";
import { ackText, nudgeRefusal, nudgeWords } from "./words.js";

// The time left shown per player is redrawn at least this often, even when nothing else changed.
const STALE_MS = 5 * 60 * 1000;

// A link's ?card= is chosen for the owed move if that move can take it; nothing is sent.
function preselected(game, draft, card) {
  const owes = owesOf(game);
  if (!card || !owes) return draft;
  const pool = owes.move === "vote" ? game.round?.table || [] : game.you?.hand || [];
  if (!pool.some((c) => c.card_id === card) || (game.you?.submitted || []).includes(card)) return draft;
  return withChosen(draft, card, Math.max(...countsOf(owes)));
}

export function gameScreen(gameId, card = null) {
  const { api } = ui;
  const root = h("div", { class: "game" }, h("p", { class: "muted" }, "Loading the game…"));
  const images = new CardImages(api);
  const history = { open: false, rounds: null, version: null };
  // Beside the game's root, so its redraws leave the talk's box alone. Its look at the talk may be the first
  // to hear that the seat is gone: the screen says so as the game's own poll would.
  const talk = talkPanel(gameId, (error) => {
    if (!lostSeat(error)) return false;
    noLongerSeated();
    return true;
  });
  let game = null;
  let draft = emptyDraft();
  let pendingCard = card;
  let drawnVersion = null;
  let noticeStep = null; // the step of the game the notice on screen belongs to
  let drawnAt = 0; // when the screen was last drawn: time left, and whether Nudge is fair yet, date from then
  let focusAfterDraw = null; // what takes focus once the screen is drawn after a move

  function show(next) {
    game = next;
    images.remember(next.you?.hand);
    images.remember(next.round?.table);
  }

  function draw() {
    draft = draftFor(draft, game);
    if (pendingCard) {
      draft = preselected(game, draft, pendingCard);
      pendingCard = null;
    }
    // Someone else moved: the last notice (a copied link, the acknowledgement of a move) is stale now.
    // And whoever moved it, once the game is past the step a notice was given in, that notice goes.
    const step = stepOf(game);
    if (drawnVersion !== null && game.version !== drawnVersion && !focusAfterDraw) ui.notify(null);
    else if (noticeStep !== null && noticeStep !== step) ui.notify(null);
    noticeStep = step;
    drawnVersion = game.version;
    drawnAt = Date.now();
    replace(root, render(game, draft, view));
    root.dataset.phase = game.phase;
    root.dataset.version = String(game.version);
    talk.update(game);
    if (focusAfterDraw) {
      // The next useful thing: the next action when there is one, else the status saying what happens now.
      focusOn(root.querySelector(focusAfterDraw) || root.querySelector("#winner"));
      focusAfterDraw = null;
    }
    // An open history may be out of date now: its toggle handler fetches it again when it is.
    if (history.open) root.querySelector("details.history")?.dispatchEvent(new Event("toggle"));
  }

  // The host gave this player's seat to a newcomer, or removed them: the API now refuses them the game
  // (403 not_a_member) and always will. Said once, in words, with the way back; nothing keeps polling.
  function noLongerSeated() {
    if (root.dataset.phase === "gone") return; // the talk and the game's poll may both find out
    poller.stop();
    talk.root.remove();
    ui.showError(null);
    ui.notify(null);
    const heading = h("h1", { id: "seat-gone-heading" }, "You are no longer at this table");
    replace(
      root,
      heading,
      h(
        "p",
        { id: "seat-gone" },
        "The host gave your seat to a newcomer or removed you from this game, so its cards and talk are not yours to see any more.",
      ),
      h("a", { class: "button", href: "#/" }, "Back to your games"),
    );
    root.dataset.phase = "gone";
    focusOn(heading);
  }

  // Whether a refusal means this player lost their place: only one who had a seat on this screen.
  const lostSeat = (error) => error?.code === "not_a_member" && Boolean(game?.you);

  // A move refused because the seat is gone ends the screen as the poll would; anything else is the error.
  async function seated(action) {
    try {
      return await action();
    } catch (error) {
      if (!lostSeat(error)) throw error;
      noLongerSeated();
      return undefined;
    }
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
    // The move's body is taken from the draft as it is at the click, not as it was drawn. The move is
    // acknowledged in words, and focus goes to what comes next.
    send(button, path, moveOf = () => ({}), move = null) {
      return act(button, async () => {
        const body = moveOf(draft);
        const next = await seated(() => api.move(path, body));
        if (!next) return;
        draft = sent(draft);
        show(next);
        ui.notify(move ? ackText(move, body, next) : null);
        noticeStep = stepOf(next); // the acknowledgement speaks of the game as the move left it
        focusAfterDraw = "#status-line";
        draw();
      });
    },
    // Vacation, +24 h, offer a seat, remove a player: the API answers with the game, acknowledged in words.
    absence(button, path, body, ackOf) {
      return act(button, async () => {
        const next = await seated(() => api.move(path, body));
        if (!next) return;
        show(next);
        ui.notify(ackOf(next));
        noticeStep = stepOf(next);
        focusAfterDraw = "#table-heading";
        draw();
      });
    },
    nudge(button) {
      return act(button, async () => {
        try {
          const answer = await api.call("POST", `/games/${gameId}/nudges`, {});
          ui.notify(nudgeWords(answer, (id) => game.players.find((p) => p.player_id === id)?.name || "a player"));
        } catch (error) {
          if (error.signedOut) return;
          if (error.status === 429 || error.code === "nudge_too_soon") ui.notify(nudgeRefusal(error));
          else throw error;
        }
      });
    },
    // Whether the history is there to show: it is fetched again only once the game has moved on.
    async openHistory(open) {
      history.open = open;
      if (!open) return false;
      if (history.version !== game.version) {
        try {
          const rounds = await roundsUpTo(game.last_round?.number);
          history.rounds = rounds.list;
          // A history that still lacks the round just revealed is shown, but fetched again next time.
          history.version = rounds.complete ? game.version : null;
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

  // The history is written from the table's stream, a moment after the vote that scored a round: a
  // history asked for right after the reveal may not hold it yet. Asked again a few times, briefly.
  async function roundsUpTo(number) {
    let list = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 300 * attempt));
      list = (await api.get(`/games/${gameId}/rounds`)).rounds || [];
      if (!number || list.some((r) => r.number === number)) return { list, complete: true };
    }
    return { list, complete: false };
  }

  // A finished game's rematch: its lobby's page says who opened it and who is in (null: nobody yet).
  // Looked up only while the game is over, as often as the finished game is polled (once a minute).
  async function rematchPage(next) {
    if (next.phase !== "finished" || !next.you || !next.rematch_game_id) return undefined;
    try {
      // `lobby` is null until someone opens it: "not yet" is a 200, not a 404 in the console.
      return (await api.call("GET", `/games/${next.game_id}/rematch`)).lobby;
    } catch (error) {
      if (error.status === 404) return null;
      throw error;
    }
  }

  // The live channel says when the game changed; the poller fetches it then (and polls when it cannot).
  let live = null;
  const poller = ui.poll(async () => {
    const polled = await seated(() => api.poll(`/games/${gameId}`));
    if (!polled) return 3600; // the poller is stopped by now; the wait is never used
    const { body, changed, wait } = polled;
    const rematch = await rematchPage(body);
    const rematchChanged = JSON.stringify(rematch) !== JSON.stringify(view.rematch);
    view.rematch = rematch;
    // With no move, the screen still changes when a nudge becomes fair or a deadline passes.
    const now = Date.now();
    const marked = game && (timeMarks(game).some((m) => m > drawnAt && m <= now) || now - drawnAt > STALE_MS);
    if (changed || !game || marked || rematchChanged) {
      show(body);
      if (body.last_round) images.remember(body.last_round.cards);
      // The reveal's cards, and this player's own cards on the table when they were played from another
      // device (no longer in the hand this page saw): their pictures come from the deck's listing, once.
      const shown = [...(body.last_round?.cards || []).map((c) => c.card_id), ...(body.you?.submitted || [])];
      await images.ensure(shown, body.settings?.decks);
      draw();
    }
    talk.update(game); // the talk changes without the game: asked for again now and then
    // A finished game changes no more: look again now and then only, in case the API says otherwise.
    const next = game.phase === "finished" ? Math.max(wait, 60) : wait;
    return live ? live.wait(next) : next;
  });
  live = new LiveGame(api, gameId, () => poller.now())
    .on("messages.changed", (message) => message.game_id === gameId && talk.refresh())
    .on("reactions.changed", (message) => message.game_id === gameId && talk.refreshReactions())
    .start();
  poller.also(() => live.stop());
  return [root, talk.root];
}
