// The game screen: lobby, hand, clue, submissions, the vote, the reveal, scores, history and the end.
//
// Secrecy rule for everything rendered here: a card is named only by its position ("card 3 of 7 in your
// hand", "table card 2"), and nothing says who owns a table card until the API's reveal does.

import { h, listOf, replace } from "./dom.js";
import { act, title, ui } from "./ui.js";

const PHASE_TITLES = {
  lobby: "Lobby",
  storytelling: "The storyteller's turn",
  submitting: "Choosing cards",
  voting: "Voting",
  finished: "Game over",
};

const END_REASONS = {
  target_score: (g) => `Someone reached the target score of ${g.settings?.target_score ?? ""} points.`,
  deck_exhausted: () => "The draw pile ran out: there were not enough cards for another round.",
  everyone_left: () => "Everyone else left the game.",
  abandoned: () => "No round could be scored during a whole turn of storytellers: the game was abandoned.",
};

const idOf = (p) => (typeof p === "string" ? p : p?.player_id);

// The planned `you.owes`, or the same thing worked out from waiting_for and the rules.
export function owesOf(game) {
  if (game.you && "owes" in game.you) return game.you.owes;
  const me = game.you?.player_id;
  const round = game.round;
  if (!me || !round || !(round.waiting_for || []).map(idOf).includes(me)) return null;
  const seats = game.players.length;
  if (game.phase === "storytelling") return { move: "clue", count: 1 };
  if (game.phase === "submitting") return { move: "submit", count: round.cards_to_submit ?? (seats === 3 ? 2 : 1) };
  if (game.phase === "voting") {
    let counts = round.votes_allowed;
    if (typeof counts === "number") counts = [counts];
    const rules = game.settings?.rules ?? game.rules;
    counts ??= rules === "odyssey" && seats >= 7 ? [1, 2] : [1];
    return { move: "vote", counts };
  }
  return null;
}

function countsOf(owes) {
  if (!owes) return [];
  if (Array.isArray(owes.counts)) return owes.counts;
  return [owes.count ?? 1];
}

function pointsOf(result) {
  const points = result.points || {};
  if (Array.isArray(points)) return Object.fromEntries(points.map((p) => [p.player_id, p.points]));
  return points;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function timeText(iso) {
  const when = new Date(iso);
  return Number.isNaN(when.getTime()) ? iso : when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

export function gameScreen(gameId) {
  const { api } = ui;
  const root = h("div", { class: "game" }, h("p", { class: "muted" }, "Loading the game…"));
  const images = new Map(); // card_id -> the first image link seen, so redraws do not refetch the art
  const decksLoaded = new Set();
  const draft = { key: null, chosen: [], clue: "" };
  let game = null;
  let rounds = null;
  let roundsVersion = null;
  let historyOpen = false;

  const names = () => new Map(game.players.map((p) => [p.player_id, p.name]));
  const nameOf = (id) => (id === game.you?.player_id ? "you" : names().get(id) || "a player who left");
  const NameOf = (id) => {
    const n = nameOf(id);
    return n.charAt(0).toUpperCase() + n.slice(1);
  };

  function remember(cards) {
    for (const c of cards || []) if (c.image_url && !images.has(c.card_id)) images.set(c.card_id, c.image_url);
  }

  // Reveal and history cards may come without links (older API): the deck listing has them all.
  async function ensureImages(cardIds) {
    const missing = cardIds.filter((id) => !images.has(id));
    if (!missing.length) return;
    for (const deck of game.settings?.decks || []) {
      if (decksLoaded.has(deck)) continue;
      decksLoaded.add(deck);
      try {
        remember((await api.get(`/decks/${encodeURIComponent(deck)}/cards`)).cards);
      } catch {
        // Without the listing the reveal still reads, in words.
      }
    }
  }

  function cardImage(card, alt) {
    const src = images.get(card.card_id) || card.image_url;
    const img = h("img", { alt, loading: "lazy", decoding: "async" });
    if (src) img.src = src;
    // A remembered link may have expired: fall back to the one this response carried.
    img.addEventListener("error", () => {
      if (card.image_url && img.src !== card.image_url) {
        images.set(card.card_id, card.image_url);
        img.src = card.image_url;
      }
    });
    return img;
  }

  const zoom = document.getElementById("zoom");
  function enlarge(card, label, actions, returnTo) {
    document.getElementById("zoom-title").textContent = label.charAt(0).toUpperCase() + label.slice(1);
    const img = document.getElementById("zoom-img");
    img.src = images.get(card.card_id) || card.image_url || "";
    img.alt = label;
    replace(document.getElementById("zoom-actions"), actions);
    zoom.onclose = () => document.getElementById(returnTo)?.focus();
    zoom.showModal();
  }

  // A grid of cards; a tap (or Enter) enlarges one, and in the enlarged view it can be chosen.
  function grid(cards, { kind, choosable, max, unchoosable = new Set(), badges = () => [] }) {
    const n = cards.length;
    return h(
      "ul",
      { class: `cards ${kind}`, "aria-label": kind === "hand" ? "Your hand" : "The table" },
      cards.map((card, i) => {
        const label = kind === "hand" ? `card ${i + 1} of ${n} in your hand` : `table card ${i + 1}`;
        const chosen = draft.chosen.includes(card.card_id);
        const tileId = `${kind}-${i + 1}`;
        const toggle = () => {
          if (chosen) draft.chosen = draft.chosen.filter((c) => c !== card.card_id);
          else draft.chosen = [...draft.chosen, card.card_id].slice(-max);
          zoom.close();
          render();
        };
        const actions = [];
        if (choosable && unchoosable.has(card.card_id)) {
          actions.push(h("p", { class: "muted" }, "This is your own card: you cannot vote for it."));
        } else if (choosable) {
          actions.push(
            h(
              "button",
              { type: "button", class: chosen ? "secondary" : "", onclick: toggle },
              chosen ? "Put it back" : "Choose this card",
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
              class: `tile${chosen ? " chosen" : ""}`,
              "aria-pressed": choosable ? String(chosen) : null,
              onclick: () => enlarge(card, label, actions, tileId),
            },
            cardImage(card, label),
            chosen ? h("span", { class: "badge" }, "Chosen") : null,
            badges(card).map((b) => h("span", { class: "badge alt" }, b)),
          ),
        );
      }),
    );
  }

  function sendButton(text, ready, path, body, after) {
    const button = h("button", { type: "button", id: "send", disabled: !ready }, text);
    button.addEventListener("click", () =>
      act(button, async () => {
        const view = await api.move(path, body());
        draft.chosen = [];
        draft.clue = "";
        after?.(view);
        game = view;
        remember(view.you?.hand);
        remember(view.round?.table);
        render();
      }),
    );
    return button;
  }

  function deadlineLine(owes) {
    const deadline = owes?.deadline ?? game.round?.deadline;
    return deadline ? h("p", { class: "small muted" }, `Please move by ${timeText(deadline)}.`) : null;
  }

  function statusLine(owes) {
    if (game.phase === "finished") return null;
    if (game.phase === "lobby") return null;
    const teller = game.round.storyteller_id;
    const waiting = (game.round.waiting_for || []).map(idOf).filter((id) => id !== game.you?.player_id);
    const youDo = {
      clue: "Your turn: you are the storyteller. Pick a card and give a clue.",
      submit: `Your turn: choose ${plural(countsOf(owes)[0], "card")} that fit the clue.`,
      vote: "Your turn: which card is the storyteller's?",
    };
    const text = owes
      ? youDo[owes.move] || "Your turn."
      : waiting.length
        ? `Waiting for ${listOf(waiting.map(nameOf))}.`
        : "Waiting for the other players.";
    return h(
      "div",
      { class: `status${owes ? " urgent" : ""}`, id: "status", "data-owes": owes?.move || "" },
      h("p", {}, h("strong", {}, text)),
      game.phase !== "storytelling" && game.round.clue
        ? h("p", { class: "clue" }, `${NameOf(teller)}'s clue: `, h("q", {}, game.round.clue))
        : owes
          ? null
          : h("p", { class: "muted" }, `${NameOf(teller)} is the storyteller.`),
      deadlineLine(owes),
    );
  }

  function panel(owes) {
    const you = game.you;
    if (!you) return h("p", { class: "muted" }, "You are watching this game.");
    const hand = you.hand || [];
    const table = game.round?.table || [];
    if (owes?.move === "clue") {
      const clue = h("input", {
        id: "clue",
        maxlength: 200,
        autocomplete: "off",
        value: draft.clue,
        oninput: (e) => {
          draft.clue = e.target.value;
          send.disabled = !(draft.chosen.length === 1 && draft.clue.trim());
        },
      });
      const send = sendButton("Tell the clue", draft.chosen.length === 1 && draft.clue.trim(), `/games/${gameId}/clue`, () => ({
        card_id: draft.chosen[0],
        clue: draft.clue.trim(),
      }));
      return [
        h("h2", {}, "Your hand"),
        h("p", { class: "small muted" }, "Tap a card to see it big, then choose it."),
        grid(hand, { kind: "hand", choosable: true, max: 1 }),
        h("label", { for: "clue" }, "Your clue (a word, a sentence, a sound…)"),
        clue,
        send,
      ];
    }
    if (owes?.move === "submit") {
      const count = countsOf(owes)[0];
      return [
        h("h2", {}, "Your hand"),
        h("p", {}, `Choose ${plural(count, "card")} (${draft.chosen.length} chosen). Tap a card to see it big.`),
        grid(hand, { kind: "hand", choosable: true, max: count }),
        sendButton(
          count === 1 ? "Play this card" : "Play these cards",
          draft.chosen.length === count,
          `/games/${gameId}/submissions`,
          () => ({ card_ids: draft.chosen }),
        ),
      ];
    }
    if (game.phase === "voting") {
      const counts = owes?.move === "vote" ? countsOf(owes) : [];
      const mine = new Set(you.submitted || []);
      const voted = new Set(you.votes || []);
      const tableGrid = grid(table, {
        kind: "table",
        choosable: owes?.move === "vote",
        max: Math.max(1, ...counts),
        unchoosable: mine,
        badges: (c) => [mine.has(c.card_id) ? "Your card" : null, voted.has(c.card_id) ? "Your vote" : null].filter(Boolean),
      });
      const parts = [h("h2", {}, "The table"), tableGrid];
      if (owes?.move === "vote") {
        parts.splice(
          1,
          0,
          h(
            "p",
            {},
            counts.length > 1
              ? `Vote for ${counts.join(" or ")} cards (${draft.chosen.length} chosen).`
              : "Tap a card to see it big, then vote for it.",
          ),
        );
        parts.push(
          sendButton("Vote", counts.includes(draft.chosen.length), `/games/${gameId}/votes`, () => ({ card_ids: draft.chosen })),
        );
      }
      parts.push(h("h2", {}, "Your hand"), grid(hand, { kind: "hand", choosable: false }));
      return parts;
    }
    return [h("h2", {}, "Your hand"), grid(hand, { kind: "hand", choosable: false })];
  }

  function revealBlock(result, { heading, compact = false }) {
    const points = pointsOf(result);
    const storyCard = result.storyteller_card;
    const finders = result.cards.find((c) => c.card_id === storyCard)?.voter_ids || [];
    const guessers = Object.keys(points).length - 1;
    const summary =
      finders.length === 0
        ? "Nobody found the storyteller's card."
        : finders.length >= guessers
          ? "Everybody found the storyteller's card."
          : `${listOf(finders.map(NameOf))} found the storyteller's card.`;
    return h(
      "section",
      { class: `reveal${compact ? " compact" : ""}`, "aria-label": heading },
      h(compact ? "h3" : "h2", {}, heading),
      h("p", {}, `${NameOf(result.storyteller_id)} told `, h("q", {}, result.clue), `. ${summary}`),
      h(
        "ul",
        { class: "cards results" },
        result.cards.map((card, i) => {
          const voters = card.voter_ids || [];
          const isStory = card.card_id === storyCard;
          return h(
            "li",
            { class: isStory ? "story" : "" },
            h(
              "button",
              {
                type: "button",
                class: "tile",
                id: compact ? null : `reveal-${i + 1}`,
                onclick: () => enlarge(card, `table card ${i + 1}`, [], compact ? null : `reveal-${i + 1}`),
              },
              cardImage(card, `table card ${i + 1}`),
              isStory ? h("span", { class: "badge" }, "Storyteller") : null,
            ),
            h(
              "p",
              { class: "small" },
              h("strong", {}, card.owner_name || NameOf(card.owner_id)),
              h("br"),
              voters.length ? `Votes: ${listOf(voters.map(NameOf))}` : "No votes",
            ),
          );
        }),
      ),
      h(
        "p",
        { class: "points" },
        "Points: ",
        Object.entries(points)
          .map(([id, n]) => `${NameOf(id)} +${n}`)
          .join(", "),
      ),
    );
  }

  function scores() {
    const target = game.settings?.target_score || 30;
    const teller = game.round?.storyteller_id;
    const waiting = new Set((game.round?.waiting_for || []).map(idOf));
    const playing = game.phase !== "lobby" && game.phase !== "finished";
    return h(
      "section",
      { "aria-label": "Scores" },
      h("h2", {}, game.phase === "lobby" ? "Players" : "Scores"),
      h("p", { class: "small muted" }, `First to ${target} points wins.`),
      h(
        "ol",
        { class: "scores" },
        game.players.map((p) =>
          h(
            "li",
            {},
            h(
              "span",
              { class: "name" },
              p.name,
              p.player_id === game.you?.player_id ? " (you)" : "",
              p.player_id === game.host_id ? h("span", { class: "tag" }, "host") : null,
              playing && p.player_id === teller ? h("span", { class: "tag" }, "storyteller") : null,
              playing && waiting.has(p.player_id) ? h("span", { class: "tag wait" }, "to play") : null,
            ),
            game.phase === "lobby" ? null : h("span", { class: "score" }, String(p.score)),
            game.phase === "lobby"
              ? null
              : h("meter", { min: 0, max: target, value: Math.min(p.score, target), "aria-hidden": "true" }),
          ),
        ),
      ),
    );
  }

  function lobby() {
    const you = game.you;
    const isHost = you && you.player_id === game.host_id;
    const invite = ui.link(`#/join/${gameId}${game.invite_code ? `/${encodeURIComponent(game.invite_code)}` : ""}`);
    const parts = [];
    if (you) {
      const field = h("input", { id: "invite", readonly: true, value: invite, onfocus: (e) => e.target.select() });
      const copy = h("button", { type: "button", class: "secondary" }, "Copy");
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(invite);
          ui.notify("Invite link copied.");
        } catch {
          field.select();
          ui.notify("Select the link and copy it.");
        }
      });
      const share = navigator.share
        ? h(
            "button",
            {
              type: "button",
              class: "secondary",
              onclick: () => navigator.share({ title: "Play Dixit with me", url: invite }).catch(() => {}),
            },
            "Share",
          )
        : null;
      parts.push(
        h("label", { for: "invite" }, game.visibility === "private" ? "Invite link (private game: only people with this link can join)" : "Invite link"),
        h("div", { class: "row" }, field, copy, share),
      );
    }
    const seats = game.players.length;
    if (isHost) {
      const start = h("button", { type: "button", id: "start", disabled: seats < 3 }, "Start the game");
      start.addEventListener("click", () =>
        act(start, async () => {
          game = await api.move(`/games/${gameId}/start`);
          render();
        }),
      );
      parts.push(start, seats < 3 ? h("p", { class: "small muted" }, `At least 3 players are needed (${seats} so far).`) : null);
    } else if (you) {
      parts.push(h("p", {}, "Waiting for the host to start the game."));
    } else {
      parts.push(h("a", { class: "button", href: `#/join/${gameId}` }, "Join this game"));
    }
    if (you) {
      const leave = h("button", { type: "button", class: "secondary" }, "Leave the game");
      leave.addEventListener("click", () =>
        act(leave, async () => {
          await api.move(`/games/${gameId}/leave`);
          ui.go("#/");
        }),
      );
      parts.push(leave);
    }
    return parts;
  }

  function ending() {
    const winners = (game.winners || []).map(idOf);
    const reason = game.end_reason ? (END_REASONS[game.end_reason]?.(game) ?? game.end_reason) : null;
    const who = winners.map(NameOf);
    return h(
      "div",
      { class: "status end", id: "status", "data-owes": "" },
      h(
        "p",
        {},
        h(
          "strong",
          { id: "winner" },
          winners.length === 0
            ? "The game is over."
            : winners.length === 1
              ? winners[0] === game.you?.player_id
                ? "You win!"
                : `${who[0]} wins!`
              : `${listOf(who)} share the win!`,
        ),
      ),
      reason ? h("p", { id: "end-reason" }, reason) : null,
    );
  }

  function history() {
    const details = h("details", { class: "history", open: historyOpen }, h("summary", {}, "Round history"));
    const body = h("div", {}, rounds ? null : h("p", { class: "muted" }, "Loading…"));
    details.append(body);
    const fill = () => {
      const list = [...(rounds || [])].reverse();
      replace(
        body,
        list.length
          ? list.map((r) => revealBlock(r, { heading: `Round ${r.number}`, compact: true }))
          : h("p", { class: "muted" }, "No round has finished yet."),
      );
    };
    details.addEventListener("toggle", async () => {
      historyOpen = details.open;
      if (!details.open) return;
      if (roundsVersion !== game.version) {
        try {
          const answer = await api.get(`/games/${gameId}/rounds`);
          rounds = answer.rounds || [];
          roundsVersion = game.version;
          await ensureImages(rounds.flatMap((r) => r.cards.map((c) => c.card_id)));
          for (const r of rounds) remember(r.cards);
        } catch (error) {
          ui.showError(error);
          return;
        }
      }
      fill();
    });
    if (rounds) fill();
    return details;
  }

  function render() {
    const owes = owesOf(game);
    const phase = game.phase;
    const draftKey = `${game.round?.number}:${phase}`;
    if (draft.key !== draftKey) Object.assign(draft, { key: draftKey, chosen: [], clue: "" });
    const heading =
      phase === "lobby" || phase === "finished" || !game.round
        ? PHASE_TITLES[phase] || phase
        : `Round ${game.round.number} · ${PHASE_TITLES[phase] || phase}`;
    const last = game.last_round;
    // Just after a reveal the new round is at its first step: the result is news, so it goes first.
    const revealFirst = last && (phase === "storytelling" || phase === "finished");
    const parts = [title(heading)];
    // Seen from another tab, or in the phone's app switcher.
    if (owes) document.title = `Your turn · ${document.title}`;
    if (phase === "lobby") parts.push(...lobby(), scores());
    else {
      if (phase === "finished") parts.push(ending());
      else parts.push(statusLine(owes));
      if (revealFirst) parts.push(revealBlock(last, { heading: `Round ${last.number} revealed` }));
      if (phase !== "finished") parts.push(...[panel(owes)].flat());
      parts.push(scores());
      if (last && !revealFirst) parts.push(revealBlock(last, { heading: `Round ${last.number} revealed` }));
      parts.push(history());
    }
    parts.push(h("p", {}, h("a", { href: "#/" }, "Back to your games")));
    replace(root, parts);
    root.dataset.phase = phase;
    root.dataset.version = String(game.version);
    if (historyOpen) root.querySelector("details.history")?.dispatchEvent(new Event("toggle"));
  }

  ui.poll(async () => {
    const { body, changed, wait } = await api.poll(`/games/${gameId}`);
    if (changed || !game) {
      game = body;
      remember(body.you?.hand);
      remember(body.round?.table);
      if (body.last_round) {
        remember(body.last_round.cards);
        await ensureImages(body.last_round.cards.map((c) => c.card_id));
      }
      render();
    }
    // A finished game changes no more: look again now and then only, in case the API says otherwise.
    return game.phase === "finished" ? Math.max(wait, 60) : wait;
  });
  return [root];
}
