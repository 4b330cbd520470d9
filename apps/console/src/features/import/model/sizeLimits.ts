import { defaultPartLimits } from '@svc/bulk-format';
import type { FileKind } from './types';

const MiB = 1024 * 1024;

/**
 * How big a file the browser imports. CSV, TSV and JSON Lines are streamed in 4 MiB chunks, twice (the
 * whole-file scan of keys and types, then the encoding): memory holds a chunk, per-key counters and the part
 * being built, not the file. A JSON array is one value and is read whole: its bytes and decoded text (up to
 * twice the bytes) are in memory at once, and V8 strings stop near 1 G characters. 512 MiB keeps both
 * within a tab; above `warnBytes` it works but takes a while: say so. Ready-made parts are uploaded as
 * they are, so the server's own part limit applies. Documented in docs/benchmarks.md (import wizard).
 */
export const FILE_LIMITS = {
  maxTextBytes: 512 * MiB,
  warnTextBytes: 150 * MiB,
  maxPartBytes: defaultPartLimits.maxCompressedBytes,
} as const;

export type SizeCheck = { level: 'ok' } | { level: 'warn' | 'refuse'; message: string };

const mib = (n: number) => `${Math.round(n / MiB).toLocaleString('en-US')} MB`;

/** Whether a file of this size and kind can be imported in the browser, and what to tell the user. */
export function checkFileSize(name: string, size: number, kind: FileKind): SizeCheck {
  if (kind === 'msgpack') {
    if (size <= FILE_LIMITS.maxPartBytes) return { level: 'ok' };
    return {
      level: 'refuse',
      message: `${name} is ${mib(size)}; a part may be at most ${mib(FILE_LIMITS.maxPartBytes)}. Split it into smaller parts.`,
    };
  }
  if (size > FILE_LIMITS.maxTextBytes) {
    return {
      level: 'refuse',
      message: `${name} is ${mib(size)}; the browser imports text files of up to ${mib(FILE_LIMITS.maxTextBytes)}. Split the file, or upload it with the bulk import API.`,
    };
  }
  if (size > FILE_LIMITS.warnTextBytes) {
    return {
      level: 'warn',
      message:
        kind === 'json'
          ? `${name} is ${mib(size)}: a JSON array is read whole, which takes a while and about ${mib(size * 3)} of the tab's memory. Close other heavy tabs, or convert it to JSON Lines (read in chunks) if the page struggles.`
          : `${name} is ${mib(size)}: every row is read twice (to find its keys and types, then to encode it), which takes a while.`,
    };
  }
  return { level: 'ok' };
}
