// Drives a running code-server with headless Chromium (playwright-core) for
// tests/test_editor_e2e.py: opens FILE from the workspace, waits for a squiggle, opens the
// Problems panel and waits until it contains PROBLEM, moves the cursor to LINE:COL, shows the
// hover there and waits until it contains every string in HOVER ('|'-separated), then saves a
// screenshot (editor with the hover, Problems panel below) to SHOT.
// Prints `PROBLEMS:` and `HOVER:` blocks with the text found; exit 0 when everything was seen.
// env: CS_URL (http://127.0.0.1:PORT/?folder=/ws)  FILE (relative to the workspace)
//      PROBLEM  HOVER  LINE  COL  SHOT  TIMEOUT (s, default 90)
//      PW_DIR (folder whose node_modules holds playwright-core)  CHROMIUM (default /usr/bin/chromium)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.join(process.env.PW_DIR, 'node_modules', 'playwright-core'));

const env = (k, d) => process.env[k] || d;
const timeout = 1000 * Number(env('TIMEOUT', '90'));
const file = env('FILE');
const problem = env('PROBLEM', '');
const hoverWants = env('HOVER', '').split('|').filter(Boolean);
const where = `${env('LINE', '1')}:${env('COL', '1')}`;
const shot = env('SHOT', path.join(os.tmpdir(), 'tclint-vscode.png'));
const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const indent = (s) => s.split('\n').filter((l) => l.trim()).map((l) => '    ' + l).join('\n');

async function hoverText(page) {
  return page.evaluate(() => [...document.querySelectorAll('.monaco-hover')]
    .filter((h) => h.offsetParent !== null && !h.classList.contains('hidden'))
    .map((h) => h.innerText).join('\n'));
}

async function waitHover(page, ms) {
  return page.waitForFunction((wants) => {
    const text = [...document.querySelectorAll('.monaco-hover')]
      .filter((h) => h.offsetParent !== null && !h.classList.contains('hidden'))
      .map((h) => h.innerText).join('\n');
    return wants.every((w) => text.includes(w));
  }, hoverWants, { timeout: ms }).then(() => true, () => false);
}

async function main() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tclint-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: env('CHROMIUM', '/usr/bin/chromium'),
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  let step = 'load the workbench';
  let code = 1;
  try {
    await page.goto(env('CS_URL'), { waitUntil: 'domcontentloaded', timeout });
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout });
    log('workbench loaded');
    await page.waitForTimeout(1500);   // the keybinding service is not ready at first paint

    step = `open ${file} with Quick Open`;
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => {});
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15000 });
    await input.fill(file);
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines', { timeout });
    log(`opened ${file}`);

    step = 'wait for a squiggle';
    await page.waitForSelector('.monaco-editor .squiggly-warning, .monaco-editor .squiggly-error,'
      + ' .monaco-editor .squiggly-info', { timeout });
    log('squiggle rendered');

    step = `find "${problem}" in the Problems panel`;
    await page.keyboard.press('Control+Shift+M');
    const panel = page.locator('.markers-panel');
    await panel.waitFor({ state: 'visible', timeout: 15000 });
    await page.waitForFunction((want) => {
      const p = document.querySelector('.markers-panel');
      return p && p.querySelector('.monaco-list-row') && p.innerText.includes(want);
    }, problem, { timeout: 30000 });
    console.log('PROBLEMS:\n' + indent(await panel.innerText()));

    step = `hover at ${where}`;
    // back to the editor (focus is in the Problems panel), Go to Line, then Show Hover
    const editor = page.locator('.part.editor .monaco-editor .view-lines').first();
    await editor.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+G');
    await input.waitFor({ state: 'visible', timeout: 15000 });
    await input.fill(':' + where);   // Go to Line's input starts with ':'
    await page.keyboard.press('Enter');
    await page.waitForFunction((w) => [...document.querySelectorAll('.statusbar-item')]
      .some((e) => e.innerText.includes(w)), `Ln ${where.replace(':', ', Col ')}`, { timeout: 15000 });
    log(`cursor at ${where}`);
    await page.waitForTimeout(300);
    let seen = false;
    for (let attempt = 1; attempt <= 3 && !seen; attempt++) {
      if (attempt === 1) {   // keyboard: editor.action.showHover
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
      } else {               // the mouse over the character right of the cursor
        const box = await page.locator('.part.editor .monaco-editor .cursors-layer .cursor').first().boundingBox();
        if (box) {
          await page.mouse.move(box.x + 40, box.y + box.height / 2);
          await page.waitForTimeout(200);
          await page.mouse.move(box.x + 6, box.y + box.height / 2);
        }
      }
      seen = await waitHover(page, attempt === 3 ? 30000 : 10000);
      log(`hover attempt ${attempt}: ${seen ? 'found' : 'not yet'}`);
    }
    console.log('HOVER:\n' + indent(await hoverText(page)));
    if (!seen) throw new Error(`hover does not contain all of ${JSON.stringify(hoverWants)}`);
    code = 0;
    log('PASS');
  } catch (e) {
    log(`FAIL (${step}): ${e.message.split('\n')[0]}`);
  } finally {
    await page.screenshot({ path: shot }).catch((e) => log('screenshot failed: ' + e.message));
    log(`screenshot: ${shot}`);
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return code;
}

main().then((c) => process.exit(c), (e) => { console.error('FAIL:', e.message); process.exit(1); });
