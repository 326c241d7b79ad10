// The table-talk panel under the game: the last messages (newest at the bottom, beside the box), the box
// to write (closed, saying when talk opens again, while the phase keeps the table quiet), reactions to
// the last reveal, and mute, block and report from a player's name. Its own element beside the game
// screen's, so the game's redraws never take the caret or the half-written message away.
// Every player's word goes in as text (dom.js's h): never markup, never a link.

import { h, replace } from "./dom.js";
import { timeZoneOptions } from "./state.js";
import {
  PAGE_SIZE,
  REPORT_REASONS,
  canSend,
  charactersLeft,
  closedText,
  otherPlayers,
  reactionRow,
  shouldRefresh,
  talkLines,
  timeOf,
  windowOf,
  windowOfRefusal,
} from "./talk_state.js";
import { act, ui } from "./ui.js";

// `onRefused(error)`: the game screen's say on a refusal that is about the seat, not the talk (a seat given
// away or removed: 403 not_a_member); true when it took it, so the panel shows no error of its own.
export function talkPanel(gameId, onRefused = () => false) {
  const { api } = ui;
  const base = `/games/${gameId}`;
  let game = null;
  let page = null; // the last page of messages: {messages, talk}
  let reactions = [];
  let muted = new Set();
  let blocked = new Set();
  let lists = false; // whether this page's player's mutes and blocks were read yet
  let refused = null; // the talk a refused message told of, until the next page says it again
  let openFor = null; // the message whose name was tapped: its actions show under it
  let last = null; // {version, at}: when the messages were last asked for
  let loading = null;

  const lines = h("ol", { class: "talk-lines", id: "talk-lines" });
  const reacts = h("div", { class: "talk-reactions", id: "talk-reactions" });
  const people = h("div", { class: "talk-people-list" });
  const closed = h("p", { class: "talk-closed", id: "talk-closed", role: "status" });
  const left = h("span", { class: "small muted", id: "talk-left" });
  const input = h("input", {
    id: "talk-text",
    autocomplete: "off",
    enterkeyhint: "send",
    "aria-describedby": "talk-left talk-closed",
    oninput: () => drawBox(),
  });
  const send = h("button", { type: "submit", id: "talk-send" }, "Send");
  const form = h(
    "form",
    { class: "talk-form", onsubmit: (e) => (e.preventDefault(), post()) },
    h("label", { for: "talk-text" }, "Say something to the table"),
    h("div", { class: "row" }, input, send),
    left,
  );
  const reader = h("p", { class: "small muted", id: "talk-reader" }, "Only the players write here; you read.");
  const root = h(
    "section",
    { class: "talk", id: "talk", "aria-labelledby": "talk-heading" },
    h("h2", { id: "talk-heading" }, "Table talk"),
    reacts,
    lines,
    closed,
    form,
    reader,
    h("details", { class: "talk-people", id: "talk-people" }, h("summary", {}, "Mute or block a player"), people),
  );
  root.hidden = true; // until a game is there to talk about

  const talk = () => refused || page?.talk || windowOf(game);
  const seated = () => Boolean(game?.you);
  const nameOf = (id) => game?.players?.find((p) => p.player_id === id)?.name || "this player";

  async function load() {
    last = { version: game.version, at: Date.now() };
    if (!lists && api.token) {
      const [m, b] = await Promise.all([api.call("GET", "/players/me/muted-players"), api.call("GET", "/players/me/blocks")]);
      muted = new Set(m.muted);
      blocked = new Set(b.blocked);
      lists = true;
    }
    page = await api.call("GET", `${base}/messages?limit=${PAGE_SIZE}`);
    refused = null;
    await loadReactions();
    draw();
  }

  // The table's reactions, asked for only once a round was revealed (there is nothing to react to before).
  async function loadReactions() {
    reactions = game?.last_round ? (await api.call("GET", `${base}/reactions`)).reactions : [];
  }

  // A load that ends after the screen was left (or the seat lost) has nobody to tell.
  function told(error) {
    if (error.signedOut || onRefused(error) || !root.isConnected) return;
    ui.showError(error);
  }

  // Asks again only when the game moved on, or a while after it last asked; errors stay in the panel's
  // own line, so a failed look at the talk never stops the game's polling.
  function refresh(force = false) {
    if (loading || !game || (!force && !shouldRefresh(last, game, Date.now()))) return loading;
    loading = load()
      .catch(told)
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  async function post() {
    const text = input.value;
    if (!canSend(text, talk())) return;
    await act(send, async () => {
      try {
        await api.call("POST", `${base}/messages`, { text });
        input.value = "";
        openFor = null;
        await load();
      } catch (error) {
        const told = windowOfRefusal(error);
        if (!told) throw error;
        refused = told; // what the refusal said: the box closes, the words stay in it for later
        closed.dataset.refused = "true";
      }
    });
    draw();
  }

  function drawBox() {
    const now = talk();
    const words = closedText(now);
    closed.textContent = words ? (closed.dataset.refused === "true" ? `Not sent. ${words}` : words) : "";
    closed.hidden = !words;
    form.hidden = !seated();
    reader.hidden = seated();
    input.disabled = !now.open;
    const count = charactersLeft(input.value);
    left.textContent = count < 0 ? `${-count} characters too many` : `${count} characters left`;
    send.disabled = !canSend(input.value, now);
  }

  function action(label, run, extra = {}) {
    return h("button", { type: "button", class: "secondary small", ...extra, onclick: (e) => act(e.currentTarget, run).then(draw) }, label);
  }

  async function setList(kind, id, on) {
    await api.call(on ? "PUT" : "DELETE", `/players/me/${kind}/${id}`);
    const set = kind === "blocks" ? blocked : muted;
    if (on) set.add(id);
    else set.delete(id);
    if (kind === "blocks") {
      // A block mutes too; unblocking unmutes (docs/table-talk.md).
      if (on) muted.add(id);
      else muted.delete(id);
    }
    openFor = null;
    ui.notify(`${nameOf(id)} ${on ? (kind === "blocks" ? "is blocked" : "is muted") : kind === "blocks" ? "is unblocked" : "is unmuted"}.`);
    await load();
  }

  function actionsFor(line) {
    const id = `talk-actions-${line.id}`;
    const reason = h(
      "select",
      { id: `${id}-reason`, "aria-label": "Why you report it" },
      REPORT_REASONS.map((r) => h("option", { value: r.reason }, r.label)),
    );
    return h(
      "div",
      { class: "talk-actions row", id },
      action(`Mute ${line.who}`, () => setList("muted-players", line.authorId, true)),
      action(`Block ${line.who}`, () => setList("blocks", line.authorId, true)),
      line.canReport
        ? [
            reason,
            action("Report", async () => {
              const answer = await api.call("POST", `${base}/messages/${line.id}/reports`, { reason: reason.value });
              openFor = null;
              ui.notify(answer.new ? "Reported. The host can hide it." : "You had reported it already.");
              await load();
            }),
          ]
        : null,
    );
  }

  function lineItem(line) {
    const open = openFor === line.id;
    const who =
      line.mine || !seated()
        ? h("span", { class: "talk-who" }, line.mine ? "You" : line.who)
        : h(
            "button",
            {
              type: "button",
              class: "link talk-who",
              "aria-expanded": open ? "true" : "false",
              "aria-controls": `talk-actions-${line.id}`,
              onclick: () => {
                openFor = open ? null : line.id;
                draw();
              },
            },
            line.who,
          );
    const hide = line.reported
      ? action("Reported: hide it", async () => {
          await api.call("POST", `${base}/messages/${line.id}/hide`);
          await load();
        })
      : null;
    return h(
      "li",
      { class: `talk-line${line.mine ? " mine" : ""}${line.hidden || line.gone ? " hidden" : ""}`, "data-id": line.id },
      h("div", { class: "talk-meta small" }, who, " ", h("time", { datetime: line.postedAt, class: "muted" }, timeOf(line.postedAt, Date.now(), timeZoneOptions().timeZone))),
      h("p", { class: "talk-text" }, line.text),
      hide,
      open ? actionsFor(line) : null,
    );
  }

  function drawReactions() {
    const reveal = game?.last_round;
    if (!reveal) return replace(reacts);
    const target = `round-${reveal.number}`;
    const can = seated() && talk().open;
    replace(
      reacts,
      h("p", { class: "small", id: "talk-reactions-label" }, `React to round ${reveal.number}'s reveal`),
      h(
        "div",
        { class: "row", role: "group", "aria-labelledby": "talk-reactions-label" },
        reactionRow(reactions, target).map((r) =>
          h(
            "button",
            {
              type: "button",
              class: `secondary reaction${r.mine ? " mine" : ""}`,
              "aria-pressed": r.mine ? "true" : "false",
              "aria-label": r.label,
              "data-reaction": r.reaction,
              disabled: !can,
              onclick: (e) =>
                act(e.currentTarget, async () => {
                  const path = `${base}/reactions/${target}`;
                  if (r.mine) await api.call("DELETE", path);
                  else await api.call("PUT", path, { reaction: r.reaction });
                  await loadReactions();
                }).then(draw),
            },
            `${r.symbol} ${r.count}`,
          ),
        ),
      ),
    );
  }

  function drawPeople() {
    const others = otherPlayers(game, { muted, blocked });
    replace(
      people,
      others.length && seated()
        ? h(
            "ul",
            { class: "talk-people-rows" },
            others.map((p) =>
              h(
                "li",
                {},
                h("span", {}, p.name),
                " ",
                p.blocked
                  ? action(`Unblock ${p.name}`, () => setList("blocks", p.id, false))
                  : [
                      action(p.muted ? `Unmute ${p.name}` : `Mute ${p.name}`, () => setList("muted-players", p.id, !p.muted)),
                      action(`Block ${p.name}`, () => setList("blocks", p.id, true)),
                    ],
              ),
            ),
          )
        : h("p", { class: "small muted" }, "Nobody else at this table yet."),
    );
  }

  function draw() {
    if (!game) return;
    root.hidden = false;
    const shown = talkLines(page?.messages, { me: game.you?.player_id, muted, host: game.you?.player_id === game.host_id });
    // Everything there is from players this player muted or blocked: "no messages" would not be true.
    const empty = page?.messages?.length ? "Nothing to show: every message here is from a player you muted or blocked." : "No messages yet.";
    replace(lines, shown.length ? shown.map(lineItem) : h("li", { class: "muted small" }, empty));
    drawReactions();
    drawPeople();
    drawBox();
  }

  // Coming back to the app asks for the talk at once, as it does for the game (poller.js); the listener
  // goes with the panel once the screen is left.
  const wake = () => {
    if (!root.isConnected) window.removeEventListener("focus", wake);
    else if (!document.hidden) refresh(true);
  };
  window.addEventListener("focus", wake);

  return {
    root,
    // The game screen hands over every game it draws; a new version asks for the talk again.
    update(next) {
      const changed = !game || game.version !== next.version;
      // "Not sent." stays until talk opens again: the game moving into the phase that refused the words
      // (its change often arrives just after the refusal) must not make them look sent.
      if (game && game.phase !== next.phase && windowOf(next).open) {
        refused = null;
        delete closed.dataset.refused;
      }
      game = next;
      if (changed) draw(); // an unchanged game leaves the panel (and whatever has focus in it) alone
      refresh();
    },
    // For a live channel that hears of new messages: ask now.
    refresh: () => refresh(true),
    // For a live channel that hears a reaction set or taken back: the reactions alone, asked now.
    refreshReactions() {
      if (game?.last_round) loadReactions().then(drawReactions).catch(told);
    },
  };
}
