// Being installed: whether to show the one-time "add to your home screen" hint (iPhone and iPad only,
// where a web page gets Web Push only once it is opened from the home screen), and the offline notice.
// No DOM here (`node --test tests/web/`).

export const HINT_SEEN_KEY = "dixit:home-screen-hint";

// iPadOS presents itself as a Mac: a Mac with a touch screen is an iPad.
export function isAppleMobile(userAgent, maxTouchPoints = 0) {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

// Shown once, to an iPhone or iPad player in Safari's tab (not yet opened from the home screen).
export function showHomeScreenHint({ userAgent, maxTouchPoints, standalone, seen }) {
  return isAppleMobile(userAgent, maxTouchPoints) && !standalone && !seen;
}

export const HOME_SCREEN_HINT =
  "On an iPhone, “your turn” comes as a notification only once Dixit is on your home screen: tap Share, then “Add to Home Screen”, and open Dixit from there.";

export const OFFLINE_TEXT = "You are offline: this is what you last saw. Moves can be sent again once you are back online.";
