// The notifications screen (#/notifications): notifications in this browser (Web Push) on or off, and the
// player's preferences (GET/PUT /players/me/notifications): mute, time zone, quiet hours, what each
// channel gets, the daily digest.

import { h, replace } from "../dom.js";
import { CHANNELS, KINDS, channelsShown, formProblem, formValues, preferencesBody, shownZone } from "../notify_state.js";
import { useTimeZone } from "../state.js";
import { isOn, pushSupported, turnOff, turnOn } from "../push.js";
import { act, title, ui } from "../ui.js";

function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

function zones() {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

function browserSection() {
  const state = h("p", { id: "push-state" }, "Checking…");
  const button = h("button", { type: "button", id: "push-toggle", disabled: true }, "…");
  const section = h("section", { class: "account-part" }, h("h2", {}, "In this browser"), state, button);
  let on = false;

  async function refresh() {
    if (!pushSupported()) {
      replace(state, "This browser cannot show notifications.");
      button.hidden = true;
      return;
    }
    on = await isOn();
    replace(state, on ? "Notifications are on in this browser." : "Notifications are off in this browser.");
    replace(button, on ? "Turn off notifications here" : "Turn on notifications here");
    button.disabled = false;
  }

  button.addEventListener("click", () =>
    act(button, async () => {
      if (on) await turnOff();
      else await turnOn();
      await refresh();
      ui.notify(on ? "Notifications are on in this browser." : "Notifications are off in this browser.");
    }),
  );
  refresh().catch((error) => !error.signedOut && ui.showError(error));
  return section;
}

function checkbox(id, label, checked) {
  const input = h("input", { type: "checkbox", id, checked });
  return [input, h("label", { for: id, class: "inline" }, input, " ", label)];
}

function preferencesForm(prefs, shown) {
  const { api } = ui;
  const start = formValues(prefs, browserZone());
  const [muted, mutedRow] = checkbox("notify-muted", "Mute everything (no email, no push)", start.muted);
  const zone = h("input", { id: "notify-zone", list: "notify-zones", value: start.timeZone, autocomplete: "off", spellcheck: false });
  const zoneList = h("datalist", { id: "notify-zones" }, zones().map((z) => h("option", { value: z })));
  const [quiet, quietRow] = checkbox("notify-quiet", "Keep quiet hours", start.quiet);
  const quietStart = h("input", { type: "time", id: "notify-quiet-start", value: start.quietStart });
  const quietEnd = h("input", { type: "time", id: "notify-quiet-end", value: start.quietEnd });
  const boxes = {};
  const rows = CHANNELS.filter(([channel]) => shown.includes(channel)).map(([channel, label]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, label),
      KINDS.map(([kind, kindLabel]) => {
        const input = h("input", {
          type: "checkbox",
          id: `notify-${channel}-${kind}`,
          checked: start.channels[channel].has(kind),
          "aria-label": `${label}: ${kindLabel}`,
        });
        boxes[`${channel}:${kind}`] = input;
        return h("td", {}, input);
      }),
    ),
  );
  const [digest, digestRow] = checkbox("notify-digest", "One email a day listing every game waiting for you, at", start.digest);
  const digestHour = h(
    "select",
    { id: "notify-digest-hour", "aria-label": "Digest hour" },
    Array.from({ length: 24 }, (_, hour) =>
      h("option", { value: String(hour), selected: hour === start.digestHour }, `${String(hour).padStart(2, "0")}:00`),
    ),
  );
  const [digestTalk, digestTalkRow] = checkbox("notify-digest-talk", "In it, count the table talk you have not read", start.digestTalk);
  const save = h("button", { type: "submit", id: "notify-save" }, "Save");

  function values() {
    const channels = {};
    for (const [channel] of CHANNELS) {
      // A channel with no row keeps what was saved for it: saving here never changes what is not shown.
      channels[channel] = shown.includes(channel)
        ? new Set(KINDS.map(([kind]) => kind).filter((kind) => boxes[`${channel}:${kind}`].checked))
        : start.channels[channel];
    }
    return {
      muted: muted.checked,
      timeZone: zone.value,
      quiet: quiet.checked,
      quietStart: quietStart.value,
      quietEnd: quietEnd.value,
      channels,
      digest: digest.checked,
      digestHour: digestHour.value,
      digestTalk: digestTalk.checked,
    };
  }

  return h(
    "form",
    {
      class: "card-box",
      id: "notify-form",
      onsubmit: (event) => {
        event.preventDefault();
        const problem = formProblem(values());
        if (problem) {
          ui.showError(new Error(problem));
          return;
        }
        act(save, async () => {
          const saved = await api.call("PUT", "/players/me/notifications", preferencesBody(values()));
          // Times everywhere are now told in the zone just saved.
          api.rememberZone(shownZone(saved?.time_zone ?? values().timeZone));
          useTimeZone(api.zone);
          ui.notify("Saved.");
        });
      },
    },
    mutedRow,
    h("label", { for: "notify-zone" }, "Your time zone"),
    zone,
    zoneList,
    start.zoneFromBrowser ? h("p", { class: "muted small", id: "notify-zone-hint" }, "From this browser: save to use it.") : null,
    quietRow,
    h("div", { class: "row" }, h("label", { for: "notify-quiet-start" }, "from"), quietStart, h("label", { for: "notify-quiet-end" }, "to"), quietEnd),
    h("p", { class: "muted small" }, "Nothing is sent during quiet hours; a deadline that would fall in them moves to the morning."),
    rows.length
      ? h(
          "table",
          { class: "notify-channels" },
          h("thead", {}, h("tr", {}, h("td", {}), KINDS.map(([, kindLabel]) => h("th", { scope: "col" }, kindLabel)))),
          h("tbody", {}, rows),
        )
      : h(
          "p",
          { id: "notify-no-channel" },
          "Nothing can reach you yet: turn on notifications in this browser above, or add your email in your account.",
        ),
    digestRow,
    digestHour,
    digestTalkRow,
    h("div", {}, save),
  );
}

export function notificationsScreen() {
  // This browser's part does not wait for the preferences: each shows as soon as it can.
  const prefs = h("section", { class: "account-part" }, h("h2", {}, "What you hear, and when"), h("p", { class: "muted" }, "Loading…"));
  (async () => {
    const { api } = ui;
    // What this player has to be reached on decides the rows: read once, when the screen opens.
    const [saved, me, devices, subscriptions] = await Promise.all([
      api.call("GET", "/players/me/notifications"),
      api.call("GET", "/players/me"),
      api.call("GET", "/players/me/devices").catch(() => ({ devices: [] })),
      api.call("GET", "/players/me/web-push").catch(() => ({ subscriptions: [] })),
    ]);
    const shown = channelsShown({
      emailVerified: me.email_verified,
      webPushSubscriptions: (subscriptions.subscriptions || []).length,
      pushInThisBrowser: pushSupported(),
      devices: (devices.devices || []).length,
    });
    replace(prefs, h("h2", {}, "What you hear, and when"), preferencesForm(saved, shown));
  })().catch((error) => !error.signedOut && ui.showError(error));
  return [
    title("Notifications"),
    h("p", {}, h("a", { href: "#/" }, "← Back to your games")),
    h("div", { class: "account" }, browserSection(), prefs),
  ];
}
