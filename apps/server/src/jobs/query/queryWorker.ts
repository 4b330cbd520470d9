import { executeQuery, type QueryTask } from './executeQuery';

/**
 * The query process: runs one task at a time for the pool (queryPool.ts) and answers over IPC. A process,
 * not a worker thread, because a thread cannot be stopped while SQLite is inside one long step.
 */

export interface WorkerRequest {
  id: number;
  task: QueryTask;
}

export type WorkerReply =
  | { ready: true }
  | { id: number; ok: true; outcome: Awaited<ReturnType<typeof executeQuery>> }
  | { id: number; ok: false; message: string };

const send = (reply: WorkerReply) => process.send?.(reply);

process.on('message', (request: WorkerRequest) => {
  executeQuery(request.task).then(
    (outcome) => send({ id: request.id, ok: true, outcome }),
    (error: unknown) =>
      send({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
// The server is gone (or closed the pool): nothing is waiting for results any more.
process.on('disconnect', () => process.exit(0));
send({ ready: true });
