// Measures the import wizard on a 1,000,000-row CSV in headless Chromium: the real server (own process,
// 127.0.0.1, fresh data directory) serving the built console; the file is picked in the wizard, parsed and
// encoded in its Web Worker, uploaded, performed and committed. Prints the figures as one BENCH_RESULT line and
// writes them to the "Import wizard in the browser" section of docs/benchmarks.md (only that section).
//
// Run: `pnpm --filter @svc/console bench` (builds the console first when apps/console/dist is missing), or
// `node apps/console/bench/import-million.mjs [--rows N] [--console-dir DIR]`.
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureConsoleBuilt, startServer } from './benchServer.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROWS = Number(arg('--rows', '1000000'));
const consoleDir = resolve(arg('--console-dir', process.env.SVC_BENCH_CONSOLE_DIR ?? join(root, 'apps/console/dist')));
const EMAIL = 'bench@import.test';
const PASSWORD = 'bench password 123';
// Playwright and Debian's Chromium, as the browser tests use them.
const { chromium } = createRequire(join(root, 'e2e', 'package.json'))('@playwright/test');

async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  const base = Date.UTC(2024, 0, 1);
  const countries = ['jp', 'us', 'de', 'fr', 'br'];
  const plans = ['free', 'pro', 'team'];
  out.write('event_time,user_id,amount,country,plan,score\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `${new Date(base + i * 1000).toISOString()},u${i % 50_000},${i % 1000},${countries[i % 5]},${plans[i % 3]},${(i % 997) / 10}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise((r) => out.on('finish', r));
}

// Counts what the page's main thread went through: the longest gap between animation frames and long tasks.
const installProbe = () => {
  const probe = { maxFrameGap: 0, frames: 0, longTasks: 0, longTaskMs: 0, maxLongTask: 0, last: performance.now() };
  window.__probe = probe;
  const tick = (t) => {
    probe.maxFrameGap = Math.max(probe.maxFrameGap, t - probe.last);
    probe.last = t;
    probe.frames += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      probe.longTasks += 1;
      probe.longTaskMs += e.duration;
      probe.maxLongTask = Math.max(probe.maxLongTask, e.duration);
    }
  }).observe({ type: 'longtask' });
};
const resetProbe = () =>
  Object.assign(window.__probe, {
    maxFrameGap: 0,
    frames: 0,
    longTasks: 0,
    longTaskMs: 0,
    maxLongTask: 0,
    last: performance.now(),
  });
const readProbe = () => ({ ...window.__probe });

async function main() {
  ensureConsoleBuilt(root, consoleDir, (line) => process.stdout.write(`${line}\n`));
  const work = mkdtempSync(join(tmpdir(), 'svc-import-bench-'));
  const csv = join(work, 'million.csv');
  await writeCsv(csv, ROWS);
  const { base, stop } = await startServer({
    root,
    consoleDir,
    dataDir: join(work, 'data'),
    secret: 'import-bench-secret',
    email: EMAIL,
    password: PASSWORD,
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ baseURL: base });
    page.setDefaultTimeout(300_000);
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.request.post('/v3/database/create/bench', { headers: { 'x-svc-console': '1' } });
    await page.request.post('/v3/table/create/bench/million', { headers: { 'x-svc-console': '1' } });
    await page.goto('/data/import?database=bench&table=million');
    await page.evaluate(installProbe);

    await page.locator('input[type=file]').setInputFiles(csv);
    const next = page.getByRole('button', { name: 'Next' });
    for (let i = 0; i < 3; i++) {
      await next.click();
    }
    await page.evaluate(resetProbe);
    let t = Date.now();
    await page.getByRole('button', { name: 'Check and encode' }).click();
    const summary = page.getByText(/rows read: .* to import/);
    await summary.waitFor();
    const prepareSeconds = (Date.now() - t) / 1000;
    const summaryText = await summary.textContent();
    const prepareProbe = await page.evaluate(readProbe);

    await page.evaluate(resetProbe);
    t = Date.now();
    await page.getByRole('button', { name: /^Upload .* rows$/ }).click();
    await page.getByText(/^Job \d+/).waitFor();
    const uploadSeconds = (Date.now() - t) / 1000;
    const uploadProbe = await page.evaluate(readProbe);
    t = Date.now();
    const commit = page.getByRole('button', { name: /^Commit .* records$/ });
    await commit.waitFor();
    const performSeconds = (Date.now() - t) / 1000;
    t = Date.now();
    await commit.click();
    await page.getByText('Import complete').waitFor();
    const commitSeconds = (Date.now() - t) / 1000;
    const table = await (await page.request.get('/v3/table/show/bench/million')).json();
    const result = {
      loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
      rows: ROWS,
      fileMegabytes: Math.round(statSync(csv).size / 1e5) / 10,
      summary: summaryText,
      prepareSeconds,
      uploadSeconds,
      performSeconds,
      commitSeconds,
      totalSeconds: prepareSeconds + uploadSeconds + performSeconds + commitSeconds,
      committedRows: table.count,
      prepare: prepareProbe,
      upload: uploadProbe,
    };
    process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
    writeSection(result);
  } finally {
    await browser.close();
    await stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const START = '<!-- import-wizard:start -->';
const END = '<!-- import-wizard:end -->';

const HEADING = '## Import wizard in the browser';

/**
 * The file with this section replaced between its markers. A lost start marker is found again by the
 * section's heading, so the old figures are replaced rather than left beside the new ones.
 */
export function replaceSection(old, section) {
  const end = old.indexOf(END);
  let at = old.indexOf(START);
  if (at < 0 && end >= 0) at = old.lastIndexOf(HEADING, end);
  if (at >= 0 && end > at) return `${old.slice(0, at)}${section}${old.slice(end + END.length)}`;
  return `${old.trimEnd()}\n\n${section}\n`;
}

function writeSection(r) {
  const file = join(root, 'docs/benchmarks.md');
  const s = (n) => `${n.toFixed(1)} s`;
  const ms = (n) => `${Math.round(n)} ms`;
  const fps = (probe, seconds) => `${probe.frames} (${Math.round(probe.frames / seconds)})`;
  const rate = Math.round(r.rows / r.prepareSeconds).toLocaleString('en-US');
  const cpu = cpus();
  const section = [
    START,
    '## Import wizard in the browser (1,000,000-row CSV)',
    '',
    'Written by `pnpm --filter @svc/console bench` (`apps/console/bench/import-million.mjs`): headless Chromium',
    'picks a generated CSV in the import wizard (ISO 8601 times, 6 columns); the Web Worker parses (papaparse),',
    'converts and encodes it into gzip msgpack parts of 100,000 rows, the page uploads them (2 at a time) to the',
    "real server on 127.0.0.1, which performs and commits. Frame gaps and long tasks are those of the page's main",
    'thread, measured in the page (requestAnimationFrame, PerformanceObserver `longtask`).',
    '',
    'File size limit (`FILE_LIMITS` in `apps/console/src/features/import/model/sizeLimits.ts`): the worker reads a text',
    "file whole, so its bytes, the decoded text and the part being built are in the tab's memory at once (about 3 × the",
    'file). Text files above 512 MB are refused before reading, with a message; above 150 MB the wizard warns. Ready-made',
    "msgpack.gz parts may be as large as the server's part limit (256 MB compressed).",
    '',
    `- Date: ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.versions.node}`,
    `- File: ${r.rows.toLocaleString('en-US')} rows, ${r.fileMegabytes} MB; ${r.summary}`,
    `- Load average of the machine when the run ended (1, 5, 15 min): ${r.loadAverage.join(', ')}; browser, worker and server share its cores, so a busy machine lengthens every phase and shows up as long tasks`,
    '',
    '| Phase | Time | Frames drawn (per s) | Longest frame gap | Long tasks (total) |',
    '|---|---|---|---|---|',
    `| Check and encode in the worker | ${s(r.prepareSeconds)} (${rate} rows/s) | ${fps(r.prepare, r.prepareSeconds)} | ${ms(r.prepare.maxFrameGap)} | ${r.prepare.longTasks} (${ms(r.prepare.longTaskMs)}) |`,
    `| Upload of the parts | ${s(r.uploadSeconds)} | ${fps(r.upload, r.uploadSeconds)} | ${ms(r.upload.maxFrameGap)} | ${r.upload.longTasks} (${ms(r.upload.longTaskMs)}) |`,
    `| Perform (server job) | ${s(r.performSeconds)} | | | |`,
    `| Commit | ${s(r.commitSeconds)} | | | |`,
    `| **Total** | **${s(r.totalSeconds)}** | | | |`,
    '',
    `Rows in the table afterwards: ${r.committedRows.toLocaleString('en-US')}.`,
    END,
  ].join('\n');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  writeFileSync(file, replaceSection(old, section));
  process.stdout.write(`Wrote the import wizard section of ${file}\n`);
}

main().catch((err) => {
  process.stderr.write(`import bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
