import { expect, type Page, test } from '@playwright/test';
import { largeJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';
import {
  buildJourneyWorld,
  createActivations,
  createJourneyByApi,
  demoRefsOf,
  patchJourneyByApi,
} from './journey-setup';

/**
 * Canvas benchmark (DESIGN §8): a journey of 8 stages and 300 steps in headless Chromium. Prints the
 * figures docs/benchmarks.md records: first layout, first render, drag and edit responsiveness.
 */
test('journey canvas benchmark: 8 stages, 300 steps', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'bench');
  const refs = demoRefsOf(world);
  const id = await createJourneyByApi(page, world, largeJourneyAttributes(8, 300, refs));
  const [activation] = await createActivations(page, world, id, ['Newsletter']);
  await patchJourneyByApi(
    page,
    id,
    largeJourneyAttributes(8, 300, { ...refs, activations: { ...refs.activations, welcome: activation ?? null } }),
  );

  const figures: Record<string, number> = {};
  for (const round of ['cold', 'warm'] as const) {
    await page.goto(`/journeys/${id}`);
    await expect(page.getByRole('status').filter({ hasText: 'No problems: ready to launch.' })).toBeVisible();
    await page.waitForFunction(() => performance.getEntriesByName('journey-rendered').length > 0);
    const timing = await page.evaluate(() => {
      const mount = performance.getEntriesByName('journey-canvas-mount')[0]?.startTime ?? 0;
      const rendered = performance.getEntriesByName('journey-rendered')[0]?.startTime ?? 0;
      const layout = performance.getEntriesByName('journey-layout')[0]?.duration ?? 0;
      return {
        layout,
        render: rendered - mount,
        fromNavigation: rendered,
        nodes: document.querySelectorAll('.react-flow__node').length,
      };
    });
    expect(timing.nodes).toBeGreaterThanOrEqual(300);
    figures[`${round} layout ms`] = Math.round(timing.layout);
    figures[`${round} first render ms (canvas mount to nodes on screen, layout included)`] = Math.round(timing.render);
    figures[`${round} navigation to nodes on screen ms`] = Math.round(timing.fromNavigation);
    figures['nodes in the DOM'] = timing.nodes;
  }

  const overview = testInfo.outputPath('journey-300-steps.png');
  await page.screenshot({ path: overview });
  await testInfo.attach('journey-300-steps', { path: overview, contentType: 'image/png' });

  // Drag: move one step 300 px in 30 mouse moves while recording frame intervals.
  const node = page.getByRole('group', { name: /^Activation: Message/ }).first();
  await node.scrollIntoViewIfNeeded();
  const box = await node.boundingBox();
  if (!box) throw new Error('no node to drag');
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.__frames.push(now - last);
      last = now;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const dragStart = Date.now();
  await page.mouse.move(box.x + box.width / 2, box.y + 12);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) await page.mouse.move(box.x + box.width / 2 + i * 10, box.y + 12 + i * 4);
  await page.mouse.up();
  const dragMs = Date.now() - dragStart;
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  figures['drag: 30 moves total ms'] = dragMs;
  figures['drag: frame interval p50 ms'] = Math.round(sorted[Math.floor(sorted.length * 0.5)] ?? 0);
  figures['drag: frame interval p95 ms'] = Math.round(sorted[Math.floor(sorted.length * 0.95)] ?? 0);
  figures['drag: longest frame ms'] = Math.round(sorted[sorted.length - 1] ?? 0);

  // Edit: change a wait's length in the side panel until the node shows it.
  await page.getByRole('button', { name: 'Find a step' }).click();
  await page
    .getByRole('dialog', { name: 'Find a step' })
    .getByRole('combobox', { name: 'Step name or kind' })
    .fill('Wait 3 days');
  await page
    .getByRole('option', { name: /^Wait 3 days · Wait · Stage 2( · |$)/ })
    .first()
    .click();
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' }).and(page.locator('.selected'))).toBeFocused();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await watchInPage(page, 'input', 'Wait: Wait 9 days', 1);
  const editStart = Date.now();
  await side.getByLabel('Wait length (days)').fill('9');
  await expect(page.getByRole('group', { name: 'Wait: Wait 9 days' })).toBeVisible();
  figures['edit: wait length to node updated ms (Playwright, polling included)'] = Date.now() - editStart;
  figures['edit: wait length to node updated ms (in page: input event to next frame)'] = await watched(page);
  // Structural edit: insert a step (new layout of its stage) until it is on screen.
  await page.getByRole('group', { name: 'Wait: Wait 9 days' }).focus();
  await watchInPage(page, 'keydown', 'Wait: Wait 9 days', 2);
  const insertStart = Date.now();
  await page.keyboard.press('Control+d');
  await expect(page.getByRole('group', { name: 'Wait: Wait 9 days' })).toHaveCount(2);
  figures['edit: duplicate a step (relayout) to on screen ms (Playwright, polling included)'] =
    Date.now() - insertStart;
  figures['edit: duplicate a step (relayout) to on screen ms (in page: keydown to next frame)'] = await watched(page);

  const report = Object.entries(figures)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  console.log(`Journey canvas benchmark (8 stages, 300 steps)\n${report}`);
  await testInfo.attach('journey-canvas-benchmark', { body: report, contentType: 'text/plain' });
});

/**
 * Times an edit inside the page, free of Playwright's polling: from the first `event` (captured on the
 * document) until `count` nodes carry `label`, plus the frame that paints them.
 */
async function watchInPage(page: Page, event: 'input' | 'keydown', label: string, count: number) {
  await page.evaluate(
    ({ event, label, count }) => {
      const w = window as unknown as { __edit: Promise<number> };
      w.__edit = new Promise<number>((resolve) => {
        let start = 0;
        const begin = () => {
          start = performance.now();
        };
        document.addEventListener(event, begin, { capture: true, once: true });
        const selector = `.react-flow__node[aria-label="${label}"]`;
        const observer = new MutationObserver(() => {
          if (start === 0 || document.querySelectorAll(selector).length < count) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve(Math.round(performance.now() - start)));
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
    },
    { event, label, count },
  );
}

async function watched(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __edit: Promise<number> }).__edit);
}
