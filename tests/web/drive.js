// drive.js - plays a web release in the system chromium, headless, through puppeteer-core (the web leg of
// ./build.sh test runs it from tests/web/test_web.py). Usage: node drive.js URL OUT_DIR [firstframe N]
// With "firstframe N" it only loads the page N times, each in a fresh browser context (nothing cached), and
// records the page's clock at the end of the first frame (tests/bench/bench_web.py).
// It loads the page, starts a run by hand (Enter, fire to the right while weaving), restarts it from the
// pause menu (which saves the best score), lets the autopilot play (F10), takes screenshots, then reloads the
// page to see the best score come back from the browser's storage. What it saw goes to OUT_DIR/result.json.
const puppeteer = require("puppeteer-core");
const fs = require("fs");
const path = require("path");

const [url, out] = process.argv.slice(2);
const result = { console: [], errors: [], first_frame_ms: [], frames: 0 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function frames(page) { return page.evaluate(() => (window.Module && Module.hostFrames) || 0); }
async function waitFrames(page, n, timeoutMs) {   // n more frames drawn by the game
  const start = await frames(page), t0 = Date.now();
  while ((await frames(page)) < start + n) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`only ${(await frames(page)) - start} of ${n} frames in ${timeoutMs} ms`);
    await sleep(20);
  }
}
async function load(page) {
  await page.goto(url, { waitUntil: "load" });
  const t0 = Date.now();
  while ((await frames(page)) < 1) {
    if (Date.now() - t0 > 60000) throw new Error("no first frame in 60 s");
    await sleep(20);
  }
  result.first_frame_ms.push(await page.evaluate(() => Module.firstFrameMs));
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--autoplay-policy=no-user-gesture-required",
           "--window-size=1280,720"],
    defaultViewport: { width: 1280, height: 720 },
  });
  try {
    if (process.argv[4] === "firstframe") {
      for (let i = 0; i < Number(process.argv[5] || 5); i++) {
        const context = await browser.createBrowserContext();
        const p = await context.newPage();
        p.on("pageerror", (e) => result.errors.push(String(e && e.stack || e)));
        await load(p);
        await context.close();
      }
      return;
    }
    const page = await browser.newPage();
    page.on("console", (m) => result.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => result.errors.push(String(e && e.stack || e)));
    await load(page);
    await page.screenshot({ path: path.join(out, "title.png") });
    await page.mouse.click(640, 600);                 // focus, and the gesture that lets audio start
    await page.keyboard.press("Enter");               // start a run
    await waitFrames(page, 30, 20000);
    await page.keyboard.down("ArrowRight");           // fire to the right, weaving up and down
    for (let i = 0; i < 6; i++) {
      const key = i % 2 ? "w" : "s";
      await page.keyboard.down(key);
      await waitFrames(page, 30, 20000);
      await page.keyboard.up(key);
      if (i == 1) await page.screenshot({ path: path.join(out, "play.png") });
    }
    await page.keyboard.up("ArrowRight");
    result.synced_before = await page.evaluate(() => window.saveSynced || 0);
    await page.keyboard.press("Escape");              // the pause menu: resume, restart, quit
    await waitFrames(page, 10, 20000);
    await page.keyboard.press("ArrowDown");
    await waitFrames(page, 5, 20000);
    await page.keyboard.press("Enter");               // restart: the run's score is saved as the best
    const t0 = Date.now();
    while ((await page.evaluate(() => window.saveSynced || 0)) <= result.synced_before && Date.now() - t0 < 10000) await sleep(50);
    result.synced_after = await page.evaluate(() => window.saveSynced || 0);
    await page.keyboard.press("F10");                 // the autopilot plays
    await waitFrames(page, 300, 60000);
    await page.screenshot({ path: path.join(out, "autopilot.png") });
    result.frames = await frames(page);
    result.report_shown = await page.evaluate(() => document.getElementById("report").style.display === "block");
    result.console_after_reload_from = result.console.length;
    await load(page);                                 // a reload: the best comes back from IndexedDB
    await waitFrames(page, 10, 20000);
  } catch (e) {
    result.errors.push("driver: " + String(e && e.stack || e));
  } finally {
    await browser.close();
  }
  if (process.argv[4] !== "firstframe") await withoutWebGL();
  fs.writeFileSync(path.join(out, "result.json"), JSON.stringify(result, null, 1));
})();

// The page in a browser with WebGL turned off: it must say so instead of starting.
async function withoutWebGL() {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-webgl", "--disable-3d-apis"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "load" });
    await sleep(1000);
    result.no_webgl = await page.evaluate(() => ({
      shown: document.getElementById("report").style.display === "block",
      title: document.getElementById("report-title").textContent,
      text: document.getElementById("report-text").textContent,
      frames: (window.Module && Module.hostFrames) || 0,
    }));
  } catch (e) {
    result.errors.push("driver (no WebGL): " + String(e && e.stack || e));
  } finally {
    await browser.close();
  }
}
