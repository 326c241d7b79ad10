// Installing the client (web/install_state.js, web/sw.js, web/manifest.json): the iPhone hint shown once,
// the service worker's shell listing every file of the client, the manifest's icons there.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { describe, test } from "node:test";

import * as install from "../../web/install_state.js";

const WEB = new URL("../../web/", import.meta.url);
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

describe("installing", () => {
  test("the home-screen hint shows once, on an iPhone or iPad in a browser tab only", () => {
    const tab = { maxTouchPoints: 5, standalone: false, seen: false };
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: IPHONE }), true);
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: MAC }), true); // an iPad says it is a Mac
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: MAC, maxTouchPoints: 0 }), false);
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: ANDROID }), false);
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: IPHONE, standalone: true }), false);
    assert.equal(install.showHomeScreenHint({ ...tab, userAgent: IPHONE, seen: true }), false);
  });

  test("the service worker's shell lists every file of the client, and only files that exist", () => {
    const sw = readFileSync(new URL("sw.js", WEB), "utf8");
    const shell = JSON.parse(`[${/const SHELL = \[([\s\S]*?)\];/.exec(sw)[1].replace(/,\s*$/, "")}]`);
    const files = [
      ...readdirSync(WEB).filter((f) => /\.(js|css)$/.test(f) && f !== "sw.js"),
      ...readdirSync(new URL("screens/", WEB)).map((f) => `screens/${f}`),
    ];
    assert.deepEqual(files.filter((f) => !shell.includes(f)), []);
    for (const path of shell.filter((p) => p !== "./")) assert.ok(existsSync(new URL(path, WEB)), path);
  });

  test("the manifest names the app, starts at the client and has the icons Chromium asks for", () => {
    const manifest = JSON.parse(readFileSync(new URL("manifest.json", WEB), "utf8"));
    assert.equal(manifest.display, "standalone");
    assert.equal(manifest.start_url, "./");
    const sizes = manifest.icons.map((i) => i.sizes);
    assert.ok(sizes.includes("192x192") && sizes.includes("512x512"));
    for (const icon of manifest.icons) assert.ok(existsSync(new URL(icon.src, WEB)), icon.src);
  });
});
