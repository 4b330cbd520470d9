import { type FileProfile, Profiler } from '../model/profile';
import { checkFileSize } from '../model/sizeLimits';
import type { ReadSettings } from '../model/types';
import { readRows } from './readRows';

/** A file to scan whole, read with the settings the wizard detected (or the user set). */
export interface ProfileRequest {
  file: File;
  settings: ReadSettings;
}

export type ProfileEvent =
  | { type: 'progress'; bytesDone: number; bytesTotal: number; rows: number }
  | { type: 'done'; profile: FileProfile }
  | { type: 'error'; message: string };

/**
 * Reads every row of a text file, streamed in chunks, and counts per key how many rows have it and which
 * cells fit which type. Memory holds counters and a few examples, never the rows. Runs in a Web Worker.
 */
export async function profileFile(req: ProfileRequest, emit: (event: ProfileEvent) => void): Promise<FileProfile> {
  const { file, settings } = req;
  const size = checkFileSize(file.name, file.size, settings.kind);
  if (size.level === 'refuse') throw new Error(size.message);
  const profiler = new Profiler(file.name);
  let rows = 0;
  await readRows(file, settings, {
    row: (row, n) => {
      rows += 1;
      profiler.add(row, n);
    },
    problem: () => profiler.problem(),
    chunk: (bytesDone) => emit({ type: 'progress', bytesDone, bytesTotal: file.size, rows }),
  });
  const profile = profiler.result();
  emit({ type: 'done', profile });
  return profile;
}
