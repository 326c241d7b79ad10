// Routing: which screen the address names (register, inbox, create, join, or a game), drawn into <main>.

import { h, replace } from "./dom.js";
import { gameScreen } from "./game.js";
import { createScreen } from "./screens/create.js";
import { inboxScreen } from "./screens/inbox.js";
import { joinScreen } from "./screens/join.js";
import { registerScreen } from "./screens/register.js";
import { onRoute, stopPolling, ui } from "./ui.js";

const { api, main } = ui;

function showWho() {
  const who = document.getElementById("who");
  const me = api.me;
  replace(
    who,
    me && api.token
      ? [
          h("span", {}, me.name),
          " ",
          h(
            "button",
            {
              class: "link",
              type: "button",
              onclick: () => {
                if (window.confirm("Forget this player on this device? Keep your token to come back.")) {
                  api.forget();
                  ui.go("#/");
                }
              },
            },
            "Sign out",
          ),
        ]
      : [],
  );
}

function route() {
  stopPolling();
  ui.showError(null);
  ui.notify(null);
  showWho();
  const hash = window.location.hash || "#/";
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  let screen;
  if (!api.token) screen = registerScreen(hash);
  else if (parts[0] === "new") screen = createScreen();
  else if (parts[0] === "join" && parts[1]) screen = joinScreen(parts[1], parts[2]);
  else if (parts[0] === "game" && parts[1]) screen = gameScreen(parts[1]);
  else screen = inboxScreen();
  replace(main, screen);
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

onRoute(route);
window.addEventListener("hashchange", route);
route();
