/** A tiny seeded pseudo-random generator (mulberry32) so property tests replay the same sequence. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number): number => Math.floor(next() * below);
  const pick = <T>(items: ReadonlyArray<T>): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[int(items.length)] as T;
  };
  return { next, int, pick };
}
