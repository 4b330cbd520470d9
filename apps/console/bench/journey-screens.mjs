// Measures the journey screens of a 1,000,000-profile journey in headless Chromium (issue 30 point 6): the real
// server (own process, 127.0.0.1, fresh data directory, the engine's schedule off) serving the built console. The
// shop's customers are imported with the bulk import API, built into a parent segment, and the engine scenario's
// two-stage journey (apps/server/src/journey-engine/fixture.ts) is launched and run once, all through the API as
// the console's user. Then each screen is opened three times and the time to its first content taken in the page.
// Prints the figures as one BENCH_RESULT line and writes them to the "Journey screens in the browser" section of
// docs/benchmarks.md (only that section).
//
// Run: `pnpm --filter @svc/console bench:journeys` (builds the console first when apps/console/dist is missing), or
// `node apps/console/bench/journey-screens.mjs [--profiles N] [--console-dir DIR]`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureConsoleBuilt, startServer } from './benchServer.mjs';
import { heldBack, installProbe, waitSeen } from './journey-screens-probe.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const PROFILES = Number(arg('--profiles', '1000000'));
const REPEAT = 3;
const consoleDir = resolve(arg('--console-dir', process.env.SVC_BENCH_CONSOLE_DIR ?? join(root, 'apps/console/dist')));
const EMAIL = 'bench@journeys.test';
const PASSWORD = 'bench password 123';
const CONSOLE = { 'x-svc-console': '1' };
// Playwright and Debian's Chromium, as the browser tests use them.
const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test');
const log = (line) => process.stdout.write(`[journey screens] ${line}\n`);

/** The server's TypeScript set-up code (the scenario's fixtures, the part encoder), loaded through tsx. */
async function serverCode() {
  const tsxDir = dirname(createRequire(join(root, 'apps/server/package.json')).resolve('tsx/package.json'));
  const { tsImport } = await import(pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href);
  const load = (path) => tsImport(pathToFileURL(join(root, path)).href, import.meta.url);
  return {
    fixture: await load('apps/server/src/journey-engine/fixture.ts'),
    journeyApp: await load('apps/server/bench/journeyApp.ts'),
    bulkFormat: await load('packages/bulk-format/src/index.ts'),
  };
}

async function waitFor(what, check, seconds) {
  for (let i = 0; i < seconds * 10; i++) {
    const answer = await check();
    if (answer) return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within ${seconds} s`);
}

/**
 * The calls the fixtures make on a test harness (`h.call(method, path, { json, form, body, headers })`), sent to
 * the real server with the signed-in console's session cookie, and to the `/v3/` API with a master key made in the
 * console (as the journey browser tests do: creating a result connection takes a key).
 */
function consoleCaller(base, cookie, key) {
  return (method, path, opts = {}) => {
    const auth = path.startsWith('/v3/') ? { authorization: `SVC1 ${key}` } : { ...CONSOLE, cookie };
    const headers = { ...auth, ...(opts.headers ?? {}) };
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    return fetch(`${base}${path}`, { method, headers, body });
  };
}

/** The customers imported in parts of 100,000, the parent segment built, the scenario launched and run once. */
async function setUp(call, code) {
  const { json, shopParentSegment, seedSegments, launchScenario } = code.fixture;
  const now = Math.floor(Date.now() / 1000);
  await json(call('POST', '/v3/database/create/shop'));
  await json(call('POST', '/v3/table/create/shop/customers/log'));
  await json(call('POST', '/v3/bulk_import/create/base/shop/customers'));
  const partRows = 100_000;
  for (let at = 0, n = 0; at < PROFILES; at += partRows, n++) {
    const count = Math.min(partRows, PROFILES - at);
    const rows = Array.from({ length: count }, (_, j) => ({
      time: now - ((at + j) % 1000),
      ...code.journeyApp.shopCustomer(at + j, now),
    }));
    const body = await code.bulkFormat.encodePart(rows);
    const headers = { 'content-type': 'application/octet-stream' };
    await json(call('PUT', `/v3/bulk_import/upload_part/base/p${n}`, { body, headers }));
  }
  const { job_id: jobId } = await json(call('POST', '/v3/bulk_import/perform/base'));
  const performed = await waitFor(
    'the import',
    async () => {
      const { status } = await json(call('GET', `/v3/job/show/${jobId}`));
      return ['success', 'error', 'killed'].includes(status) && status;
    },
    1800,
  );
  if (performed !== 'success') throw new Error(`The import ended ${performed}.`);
  await json(call('POST', '/v3/bulk_import/commit/base'));
  log(`imported ${PROFILES} customers; building the parent segment`);
  const parent = await json(call('POST', '/audiences', { json: shopParentSegment }));
  const built = await waitFor(
    'the parent segment build',
    async () => (await json(call('GET', `/audiences/${parent.id}`))).buildStatus?.replace(/^(queued|running)$/, ''),
    1800,
  );
  if (built !== 'success') throw new Error(`The parent segment build ended ${built}.`);
  const h = { call };
  const ids = await launchScenario(h, parent.id, await seedSegments(h, parent.id));
  log('running the journey once: everyone enters');
  const t = performance.now();
  const run = await json(call('POST', `/entities/journeys/${ids.journeyId}/run`));
  const runSeconds = (performance.now() - t) / 1000;
  log(`ran in ${runSeconds.toFixed(1)} s: ${JSON.stringify(run.data)}`);
  return { ...ids, runSeconds };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Three measurements of one screen: the median time to its content, and the longest long task and the longest API
 * request of the three.
 */
async function three(label, measure) {
  const times = [];
  let longTask = 0;
  let request = 0;
  for (let i = 0; i < REPEAT; i++) {
    const m = await measure();
    times.push(m.ms);
    longTask = Math.max(longTask, m.longTask);
    request = Math.max(request, m.request);
  }
  const figure = {
    label,
    ms: Math.round(median(times)),
    times: times.map(Math.round),
    longTaskMs: Math.round(longTask),
    requestMs: Math.round(request),
  };
  log(
    `${label.padEnd(40)} ${String(figure.ms).padStart(6)} ms  (${figure.times.join(', ')}; longest task ${figure.longTaskMs} ms, request ${figure.requestMs} ms)`,
  );
  return figure;
}

/** From the start of the navigation to `check`'s content (the probe is installed before the page's scripts). */
async function opened(page, url, check) {
  await page.goto(url, { waitUntil: 'commit' });
  const at = await waitSeen(page, check);
  return { ms: at, ...(await page.evaluate(heldBack, { from: 0, to: at })) };
}

/** From a click on the tab (the journey's canvas shown, its requests answered) to the tab's content. */
async function clicked(page, journeyUrl, tab, check) {
  await page.goto(journeyUrl);
  await waitSeen(page, 'canvas');
  await page.waitForLoadState('networkidle');
  const from = await page.evaluate(
    ([name, check]) => {
      window.__forget(check);
      const button = [...document.querySelectorAll('[role=tab]')].find((t) => t.textContent.trim() === name);
      const t = performance.now();
      button.click();
      return t;
    },
    [tab, check],
  );
  const at = await waitSeen(page, check);
  return { ms: at - from, ...(await page.evaluate(heldBack, { from, to: at })) };
}

/** From a click on Simulate (a sample of 5, 30 days) to its result. */
async function simulated(page, journeyUrl) {
  await page.goto(`${journeyUrl}?tab=simulation`);
  await waitSeen(page, 'simulation');
  await page.getByLabel('A sample').check();
  await page.waitForLoadState('networkidle');
  const from = await page.evaluate(() => {
    window.__forget('sampled');
    const button = document.querySelector('form[aria-label="Simulation settings"] button[type=submit]');
    const t = performance.now();
    button.click();
    return t;
  });
  const at = await waitSeen(page, 'sampled');
  return { ms: at - from, ...(await page.evaluate(heldBack, { from, to: at })) };
}

async function main() {
  ensureConsoleBuilt(root, consoleDir, log);
  const code = await serverCode();
  const work = mkdtempSync(join(tmpdir(), 'svc-journey-screens-'));
  const { base, stop } = await startServer({
    root,
    consoleDir,
    dataDir: join(work, 'data'),
    secret: 'journey-screens-bench-secret',
    email: EMAIL,
    password: PASSWORD,
    // The one run is the bench's; a scheduled run meanwhile would be measured with the screens.
    env: { SVC_JOURNEY_ENGINE_INTERVAL_SECONDS: '0' },
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    await context.addInitScript({ content: `(${installProbe})()` });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const made = await page.request.post('/console-api/api-keys', {
      headers: CONSOLE,
      data: { type: 'master', name: 'Journey screens bench' },
    });
    const { key } = await made.json();
    const started = performance.now();
    const ids = await setUp(consoleCaller(base, cookie, key), code);
    const setUpSeconds = (performance.now() - started) / 1000;

    const journey = `/journeys/${ids.journeyId}`;
    const screens = [await three('Journeys list', () => opened(page, '/journeys', 'list'))];
    const tabs = [
      ['Statistics', 'statistics'],
      ['Profiles', 'profiles'],
      ['Deliveries', 'deliveries'],
      ['Simulation', 'simulation'],
    ];
    for (const [tab, check] of tabs) {
      screens.push(await three(`${tab}: opened by its address`, () => opened(page, `${journey}?tab=${check}`, check)));
      screens.push(await three(`${tab}: tab clicked`, () => clicked(page, journey, tab, check)));
    }
    const sample = await three('Simulation: a sample of 5 simulated', () => simulated(page, journey));
    const result = {
      loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
      profiles: PROFILES,
      setUpSeconds: Math.round(setUpSeconds),
      runSeconds: Math.round(ids.runSeconds * 10) / 10,
      screens,
      sample,
    };
    process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
    writeSection(result);
  } finally {
    await browser.close();
    await stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const START = '<!-- journey-screens:start -->';
const END = '<!-- journey-screens:end -->';

/** The file with this section replaced between its markers, or with the section added at its end. */
function replaceSection(old, section) {
  const at = old.indexOf(START);
  const end = old.indexOf(END);
  if (at >= 0 && end > at) return `${old.slice(0, at)}${section}${old.slice(end + END.length)}`;
  return `${old.trimEnd()}\n\n${section}\n`;
}

/** A Markdown table with its columns padded, as the repository's formatter writes it. */
function table([head, ...rows]) {
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((cells) => cells[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

function writeSection(r) {
  const file = join(root, 'docs/benchmarks.md');
  const ms = (n) => `${n.toLocaleString('en-US')} ms`;
  const row = (f) => [f.label, `${ms(f.ms)} (${f.times.join(', ')})`, ms(f.longTaskMs), ms(f.requestMs)];
  const cpu = cpus();
  const section = [
    START,
    `## Journey screens in the browser (${r.profiles.toLocaleString('en-US')} profiles)`,
    '',
    'Written by `pnpm --filter @svc/console bench:journeys` (`apps/console/bench/journey-screens.mjs`): the real server on',
    "127.0.0.1 (SQLite, the engine's schedule off) serves the built console to headless Chromium. Through the API, as the",
    "console's user: the shop's customers imported (bulk import, parts of 100,000), the parent segment built, the engine",
    "scenario's two-stage journey (`apps/server/src/journey-engine/fixture.ts`) launched with its activation and run once",
    '(everyone enters). Each screen is then measured three times in the page; the median is shown, the three in brackets.',
    '',
    "- **Opened by its address**: from the start of the navigation (a full page load: the console's scripts, the session,",
    "  the journey and its parent segment, segments, activations, permissions, then the tab's own requests) to the frame",
    '  that draws the content. **Tab clicked**: the journey page shown with its canvas and figures, its requests answered;',
    '  from the click on the tab to the frame that draws the content (the Statistics tab draws the figures the canvas',
    '  already asked for; the Simulation form asks for nothing).',
    "- The content is: the list's row of the journey with its Entered figure; the Statistics figures and the stage-to-stage",
    "  chart; the Profiles table's first row (first page of 50); the Deliveries of the activation (its table or its empty",
    "  state); the Simulation settings form. Watched by a MutationObserver installed before the page's scripts; the time",
    '  is that of the next animation frame after the content is in the document.',
    '- **Longest long task**: the longest main-thread task (PerformanceObserver `longtask`, over 50 ms) between the start',
    '  and the content, over the three measurements; 0 when there was none. **Longest API request**: the longest request',
    "  the page sent meanwhile, from its start to its last byte (resource timing; the console's scripts not counted), over",
    '  the three: what the screen waited for on the server and the network.',
    '- **A sample of 5 simulated**: from the click on Simulate (a sample of 5, 30 days ahead) to its result shown; not a',
    '  first-content figure: the server plays the journey forward for the sample.',
    '',
    `- Date: ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.versions.node}`,
    `- Set-up ${r.setUpSeconds} s, of which the journey's run ${r.runSeconds} s`,
    `- Load average of the machine when the run ended (1, 5, 15 min): ${r.loadAverage.join(', ')}; browser and server share its cores`,
    '',
    ...table([
      ['Screen', 'First content, median (three runs)', 'Longest long task', 'Longest API request'],
      ...r.screens.map(row),
      row(r.sample),
    ]),
    END,
  ].join('\n');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, replaceSection(old, section));
  log(`wrote the journey screens section of ${file}`);
}

main().catch((err) => {
  process.stderr.write(`journey screens bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
