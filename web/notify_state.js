// The notification settings worked out without a DOM (so `node --test tests/web/` checks it): the form's
// starting values from the API's preferences and the browser's time zone, and the PUT body from the form.

export const CHANNELS = [
  ["email", "Email"],
  ["web_push", "This browser and others you turned on"],
  ["device_push", "The phone apps"],
];
// The channels this player has somewhere to be reached on: a confirmed email, a browser that takes
// notifications (this one, or one they turned them on in), a phone app registered. Only those are rows.
export function channelsShown({ emailVerified, webPushSubscriptions, pushInThisBrowser, devices }) {
  return CHANNELS.map(([channel]) => channel).filter(
    (channel) =>
      ({
        email: Boolean(emailVerified),
        web_push: webPushSubscriptions > 0 || Boolean(pushInThisBrowser),
        device_push: devices > 0,
      })[channel],
  );
}

export const KINDS = [
  ["your_turn", "Your turn"],
  ["reminder", "Reminders"],
  // A rematch goes wherever the game over goes (the API has no kind of its own for it).
  ["game_over", "Game over and rematches"],
];
const DEFAULT_ZONE = "UTC";
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

// The zone times are told in: the saved one, unless it is only the default (the browser's is better then).
export const shownZone = (saved) => (saved && saved !== DEFAULT_ZONE ? saved : "");

// The zone to show: the player's saved one, unless it is still the default and the browser knows better.
export function startingZone(saved, browserZone) {
  if (saved && saved !== DEFAULT_ZONE) return { zone: saved, fromBrowser: false };
  if (browserZone && browserZone !== saved) return { zone: browserZone, fromBrowser: true };
  return { zone: saved || DEFAULT_ZONE, fromBrowser: false };
}

export function formValues(prefs, browserZone) {
  const zone = startingZone(prefs?.time_zone, browserZone);
  const channels = {};
  for (const [channel] of CHANNELS) {
    channels[channel] = new Set(prefs?.channels?.[channel] ?? KINDS.map(([kind]) => kind));
  }
  return {
    muted: Boolean(prefs?.muted),
    timeZone: zone.zone,
    zoneFromBrowser: zone.fromBrowser,
    quiet: prefs?.quiet_hours != null,
    quietStart: prefs?.quiet_hours?.start ?? "22:00",
    quietEnd: prefs?.quiet_hours?.end ?? "08:00",
    channels,
    digest: prefs?.digest != null,
    digestHour: prefs?.digest ?? 8,
    digestTalk: prefs?.digest_talk !== false, // on unless turned off (and for an API that predates it)
  };
}

// What is wrong with the form in words, or null; the API checks again (the zone against the tz database).
export function formProblem(values) {
  if (!String(values.timeZone || "").trim()) return "Choose your time zone, such as Europe/Paris.";
  if (values.quiet && (!TIME.test(values.quietStart) || !TIME.test(values.quietEnd))) {
    return "Quiet hours need a start and an end, such as 22:00 and 08:00.";
  }
  if (values.quiet && values.quietStart === values.quietEnd) return "Quiet hours must start and end at different times.";
  return null;
}

// The whole shape of PUT /players/me/notifications (kinds in the API's order).
export function preferencesBody(values) {
  const channels = {};
  for (const [channel] of CHANNELS) {
    channels[channel] = KINDS.map(([kind]) => kind).filter((kind) => values.channels[channel]?.has(kind));
  }
  return {
    muted: Boolean(values.muted),
    time_zone: String(values.timeZone).trim(),
    quiet_hours: values.quiet ? { start: values.quietStart, end: values.quietEnd } : null,
    channels,
    digest: values.digest ? Number(values.digestHour) : null,
    digest_talk: values.digestTalk !== false,
  };
}
