import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { act, decision, end, stage } from './testing/steps';
import { buildWorld, send, type World } from './testing/world';

/**
 * A PATCH of a journey computes once: its segments are looked up in one statement however many it names, and
 * the answer is made from what the check read. Counted on the real storage (a Kysely plugin sees every
 * statement), on either backend: only the request's own statements, those run in its async context (the job
 * runner looks for queued work after a job ends, and a slow machine can make that land during the request).
 */

let h: Harness;
let world: World;
/** The statements of the request being counted (patchCounted). */
const recording = new AsyncLocalStorage<string[]>();
beforeAll(async () => {
  h = await createHarness({}, { onQuery: (text) => recording.getStore()?.push(text) });
  world = await buildWorld(h);
});
afterAll(() => h.close());

/** A draft whose one stage enters from the first segment and splits over `paths` more; the rest get an activation. */
function document(paths: number) {
  const ids = Object.values(world.segments);
  const branches = ids.slice(1, 1 + paths).map((id, i): [string, string, string] => [`p${i}`, id, `end${i}`]);
  const ends = Object.fromEntries(branches.map(([, , next]) => [next, end()]));
  const steps = { split: decision(...branches, ['rest', null, 'send']), send: act('end'), end: end(), ...ends };
  return {
    type: 'journey',
    attributes: { name: 'Counted', state: 'draft', journeyStages: [stage(ids[0] as string, 'split', steps)] },
  };
}

async function patchCounted(journeyId: string, body: unknown) {
  const statements: string[] = [];
  const answer = await recording.run(statements, () =>
    send<{ meta: { launchViolations: { code: string }[] } }>(h, 'PATCH', `/entities/journeys/${journeyId}`, body),
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { answer, statements };
}

async function newDraft(): Promise<string> {
  const created = await send<{ data: { id: string } }>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name: 'Counted', audienceId: world.parentSegmentId },
  });
  return created.body.data.id;
}

const segmentLookups = (statements: string[]) => statements.filter((s) => /\bFROM segments\b/i.test(s));

describe('a journey save', () => {
  it('looks its segments up in one statement, and runs the same statements for 6 segments as for 2', async () => {
    const few = await patchCounted(await newDraft(), document(1));
    const many = await patchCounted(await newDraft(), document(5));
    expect(segmentLookups(few.statements)).toHaveLength(1);
    expect(segmentLookups(many.statements)).toHaveLength(1);
    expect(many.statements).toEqual(few.statements);
  });

  it('answers what a read of the saved journey answers, launch problems included', async () => {
    const id = await newDraft();
    const { answer } = await patchCounted(id, document(3));
    // The activation step names no activation yet: the draft is saved, and says what stops its launch.
    expect(answer.body.meta.launchViolations.map((v) => v.code)).toContain('activation.missing');
    const read = await send(h, 'GET', `/entities/journeys/${id}`);
    expect(answer.body).toEqual(read.body);
  });

  it('still refuses a segment the parent segment does not have, naming it', async () => {
    const id = await newDraft();
    const body = document(2);
    const steps = { split: decision(['p0', '987654', 'end'], ['rest', null, 'end']), end: end() };
    body.attributes.journeyStages = [stage(Object.values(world.segments)[0] as string, 'split', steps)];
    const refused = await send<{ message: string }>(h, 'PATCH', `/entities/journeys/${id}`, body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('987654');
  });
});
