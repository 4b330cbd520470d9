import { describe, expect, it } from 'vitest';
import { COLUMN_GAP, type LayoutInput, type LayoutResult, layoutStageGraph } from './stageLayout';

type Spec = Record<string, string[]>;

const SIZES: Record<string, { width: number; height: number }> = {
  start: { width: 260, height: 176 },
};

function input(spec: Spec, size: (id: string) => { width: number; height: number } = sizeOf): LayoutInput {
  return { ids: Object.keys(spec), size, next: (id) => spec[id] ?? [] };
}

function sizeOf(id: string) {
  return SIZES[id] ?? { width: 232, height: id.startsWith('split') ? 150 : 76 };
}

function centreY(result: LayoutResult, id: string) {
  return (result.positions.get(id)?.y ?? Number.NaN) + sizeOf(id).height / 2;
}

function overlaps(result: LayoutResult, size: (id: string) => { width: number; height: number } = sizeOf) {
  const boxes = [...result.positions].map(([id, p]) => ({ id, ...p, ...size(id) }));
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (!a || !b) continue;
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) {
        found.push(`${a.id}/${b.id}`);
      }
    }
  }
  return found;
}

/** A seeded generator, so a failing case can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('stage layout', () => {
  it('draws a chain as one straight row, left to right', () => {
    const r = layoutStageGraph(input({ start: ['a'], a: ['b'], b: ['c'], c: [] }));
    const ys = ['start', 'a', 'b', 'c'].map((id) => centreY(r, id));
    expect(new Set(ys).size).toBe(1);
    const xs = ['start', 'a', 'b', 'c'].map((id) => r.positions.get(id)?.x ?? 0);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect((xs[1] ?? 0) - (xs[0] ?? 0)).toBe(260 + COLUMN_GAP);
  });

  it('keeps paths in exit order top to bottom and centres the split between them', () => {
    const r = layoutStageGraph(input({ start: ['split'], split: ['p1', 'p2', 'p3'], p1: [], p2: [], p3: [] }));
    const ys = ['p1', 'p2', 'p3'].map((id) => centreY(r, id));
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(centreY(r, 'split')).toBeCloseTo(((ys[0] ?? 0) + (ys[2] ?? 0)) / 2);
    expect(overlaps(r)).toEqual([]);
  });

  it('puts a merge right of every path that reaches it, level with its split', () => {
    const r = layoutStageGraph(
      input({
        start: ['split'],
        split: ['a', 'b', 'merge'],
        a: ['a2'],
        a2: ['merge'],
        b: ['merge'],
        merge: ['end'],
        end: [],
      }),
    );
    const x = (id: string) => r.positions.get(id)?.x ?? 0;
    expect(x('merge')).toBeGreaterThan(x('a2'));
    expect(x('merge')).toBeGreaterThan(x('b'));
    expect(centreY(r, 'merge')).toBeCloseTo(centreY(r, 'split'));
    expect(centreY(r, 'end')).toBeCloseTo(centreY(r, 'merge'));
    expect(overlaps(r)).toEqual([]);
  });

  it('puts a merge below a path that runs past it, so they cannot overlap', () => {
    const r = layoutStageGraph(
      input({
        start: ['split'],
        split: ['long', 'short'],
        long: ['l2'],
        l2: ['l3'],
        l3: ['l4'],
        l4: [],
        short: ['m'],
        m: [],
      }),
    );
    expect(overlaps(r)).toEqual([]);
  });

  it('survives cycles and steps nobody reaches', () => {
    const r = layoutStageGraph(input({ start: ['a'], a: ['b'], b: ['a'], orphan: ['c'], c: [] }));
    expect([...r.positions.keys()].sort()).toEqual(['a', 'b', 'c', 'orphan', 'start']);
    expect(overlaps(r)).toEqual([]);
    expect(r.positions.get('orphan')?.y ?? 0).toBeGreaterThan(r.positions.get('start')?.y ?? 0);
  });

  it('gives the same positions for the same structure', () => {
    const spec: Spec = { start: ['s'], s: ['a', 'b'], a: ['m'], b: ['m'], m: [] };
    const one = layoutStageGraph(input(spec));
    const two = layoutStageGraph(input(spec));
    expect([...two.positions]).toEqual([...one.positions]);
  });

  it('never overlaps nodes and always draws edges left to right, over many random journeys', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed);
      // Random DAGs shaped like journeys: splits of 2–6 exits, some exits rejoining later nodes.
      const count = 2 + Math.floor(random() * 40);
      const ids = ['start', ...Array.from({ length: count }, (_, i) => (random() < 0.25 ? `split${i}` : `n${i}`))];
      const spec: Spec = {};
      ids.forEach((id, i) => {
        const later = ids.slice(i + 1);
        const exits = id.startsWith('split') ? 2 + Math.floor(random() * 5) : 1;
        spec[id] =
          later.length === 0
            ? []
            : Array.from({ length: exits }, () => later[Math.floor(random() ** 2 * later.length)] as string);
      });
      const r = layoutStageGraph(input(spec));
      expect(r.positions.size, `seed ${seed}`).toBe(ids.length);
      expect(overlaps(r), `seed ${seed}`).toEqual([]);
      for (const [from, targets] of Object.entries(spec)) {
        for (const to of targets) {
          expect(r.positions.get(to)?.x ?? 0, `seed ${seed}: ${from}→${to}`).toBeGreaterThan(
            r.positions.get(from)?.x ?? 0,
          );
        }
      }
    }
  });
});
