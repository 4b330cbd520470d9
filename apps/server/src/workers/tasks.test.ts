import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BackgroundWork } from '../platform/work';
import { tasks } from './tasks';

/**
 * The task map is checked by the compiler (`pnpm typecheck` compiles this file): a call names a registered task,
 * passes that task's arguments and gets its result. The `@ts-expect-error` lines fail the type check the day a
 * wrong call is accepted.
 */
declare const pool: BackgroundWork;
type Run = BackgroundWork['run'];
type Result<K extends keyof typeof tasks> = Awaited<ReturnType<typeof pool.run<K>>>;
type Args<K extends keyof typeof tasks> = Parameters<typeof pool.run<K>>[1];

describe('the task map', () => {
  it('types a call by the task it names', () => {
    expectTypeOf<Result<'bulk-import.commit'>>().toEqualTypeOf<{ inserted: number }>();
    expectTypeOf<Result<'audiences.count'>>().toEqualTypeOf<number>();
    expectTypeOf<Args<'data.drop-table'>>().toHaveProperty('name').toEqualTypeOf<string>();
  });

  it('refuses a task that is not registered, and arguments of the wrong shape', () => {
    const call = (run: Run) => {
      // @ts-expect-error a misspelt task name
      void run('bulk-import.comit', {});
      // @ts-expect-error the session is a row, not an id
      void run('bulk-import.commit', { session: 1, limits: {} });
    };
    expect(typeof call).toBe('function');
  });

  it('registers every task the map names, each a function the worker can call', () => {
    for (const [name, task] of Object.entries(tasks)) {
      expect(name).toMatch(/^[a-z-]+\.[a-z-]+$/);
      expect(typeof task).toBe('function');
    }
  });
});
