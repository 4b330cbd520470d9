// The in-page half of journey-screens.mjs: installed before the console's scripts on every page (an init script),
// it notes the long tasks of the main thread and, for each screen's content, the time of the first animation frame
// after that content is in the document.

/**
 * Installs the probe on `window`: `__seen[name]` is the `performance.now()` of the frame that first drew the
 * content of check `name` (since its last `__forget(name)`), `__longTasks` the long tasks. The checks are written
 * here rather than passed in: the console's content security policy allows no code built from text.
 */
export function installProbe() {
  const rows = (selector) => [...document.querySelectorAll(selector)];
  const text = (el) => el?.textContent ?? '';
  const checks = {
    // The journey's row with its Entered figure (a dash until the statistics answer).
    list: () =>
      rows('table[aria-label="Journeys"] tbody tr').some(
        (tr) => text(tr).includes('Welcome') && /\d/.test(text(tr.querySelectorAll('td')[3])),
      ),
    // The journey page's canvas with its steps, and the engine's tabs.
    canvas: () => document.querySelector('.react-flow__node') !== null && rows('[role=tab]').length > 1,
    statistics: () =>
      /\d/.test(text(document.querySelector('section[aria-label="Entered the journey"]'))) &&
      document.querySelector('section[aria-label="Stage to stage"] svg') !== null,
    profiles: () => document.querySelector('table[aria-label="Profiles in the journey"] tbody tr') !== null,
    deliveries: () => {
      const section = document.querySelector('section[aria-label="Offer mail"]');
      return section !== null && (section.querySelector('table') !== null || text(section).includes('No deliveries'));
    },
    simulation: () => document.querySelector('form[aria-label="Simulation settings"] button[type=submit]') !== null,
    sampled: () => document.querySelector('section[aria-label="Simulation results"]') !== null,
  };
  const seen = {};
  const pending = new Set();
  const longTasks = [];
  window.__seen = seen;
  window.__longTasks = longTasks;
  window.__forget = (name) => {
    delete seen[name];
    pending.delete(name);
  };
  const look = () => {
    for (const [name, check] of Object.entries(checks)) {
      if (name in seen || pending.has(name) || !check()) continue;
      pending.add(name);
      requestAnimationFrame(() => {
        if (!pending.delete(name)) return;
        seen[name] = performance.now();
      });
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * What held the content back between `from` and `to` (page time, ms): the longest long task that overlapped them,
 * and the longest request to the API started between them (to its last byte); 0 when there was none.
 */
export function heldBack({ from, to }) {
  const longTask = window.__longTasks
    .filter((t) => t.start < to && t.start + t.duration > from)
    .reduce((longest, t) => Math.max(longest, t.duration), 0);
  const request = performance
    .getEntriesByType('resource')
    .filter((r) => ['fetch', 'xmlhttprequest'].includes(r.initiatorType) && r.startTime >= from && r.startTime < to)
    .reduce((longest, r) => Math.max(longest, r.responseEnd - r.startTime), 0);
  return { longTask, request };
}

/** Waits until the content of check `name` was drawn; answers the page time of that frame. */
export async function waitSeen(page, name) {
  const handle = await page.waitForFunction((n) => window.__seen?.[n], name, { polling: 50 });
  return handle.jsonValue();
}
