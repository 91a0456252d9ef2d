// Drives the built page in Debian's Chromium with playwright-core (no browser download).
//   node scripts/page.mjs shots URL OUTDIR   screenshots at 1400×1000
//   node scripts/page.mjs bench URL RUNS      load → first plan, ms (fresh context per run)
import { chromium } from 'playwright-core';

const [mode, url, arg] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const viewport = { width: 1400, height: 1000 };

async function open() {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') console.error(`console: ${m.text()}`); });
  await page.goto(url);
  await page.waitForSelector('html[data-first-plan-ms]', { state: 'attached', timeout: 120000 });
  return { context, page };
}

if (mode === 'shots') {
  const { page } = await open();
  await page.waitForSelector('[data-testid=landscape] svg', { timeout: 60000 });
  await page.screenshot({ path: `${arg}/screenshot.png` });
  // The landscape with a hover read-out, and the schedule below it.
  const chart = page.locator('[data-testid=landscape-chart]');
  await chart.scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelector('#landscape').scrollIntoView());
  const box = await chart.boundingBox();
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.45);
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${arg}/screenshot-landscape.png` });
  // The utility view.
  await page.click('[data-action=value-utility]');
  await page.waitForTimeout(200);
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.45);
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${arg}/screenshot-utility.png` });
  // An invalid value: the field, its message, and the previous plan kept.
  await page.click('[data-action=value-time]');
  const b = page.locator("[data-field='job.ps_bandwidth_gbps']");
  await b.fill('0');
  await page.waitForSelector('[data-testid=error]');
  await page.evaluate(() => document.querySelector("[data-field='job.ps_bandwidth_gbps']")
    .scrollIntoView({ block: 'center' }));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${arg}/screenshot-error.png` });
  console.log(`wrote ${arg}/screenshot*.png`);
} else if (mode === 'bench') {
  const runs = Number(arg || 5);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const { context, page } = await open();
    const ms = Number(await page.getAttribute('html', 'data-first-plan-ms'));
    const rows = await page.locator('[data-testid=plan-row]').count();
    times.push(ms);
    console.log(`run ${i + 1}: first plan after ${ms} ms (${rows} plan rows)`);
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(`median ${times[Math.floor(times.length / 2)]} ms, min ${times[0]} ms, max ${times[times.length - 1]} ms`);
} else {
  console.error('usage: node scripts/page.mjs shots URL OUTDIR | bench URL RUNS');
  process.exitCode = 2;
}
await browser.close();
