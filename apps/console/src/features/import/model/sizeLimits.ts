import { defaultPartLimits } from '@svc/bulk-format';
import type { FileKind } from './types';

const MiB = 1024 * 1024;

/**
 * How big a file the browser imports. A text file is read whole in the worker: its bytes, the decoded text
 * (up to twice the bytes) and the records of the part being built are in memory at once, so 512 MiB of text
 * needs 1.5 GB or more of the tab's memory; past that tabs are killed (and V8 strings stop near 1 G
 * characters). Above `warnBytes` it works but is slow and heavy: say so. Ready-made parts are uploaded as
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
      message: `${name} is ${mib(size)}; the browser imports text files of up to ${mib(FILE_LIMITS.maxTextBytes)} (it reads them whole). Split the file, or upload it with the bulk import API.`,
    };
  }
  if (size > FILE_LIMITS.warnTextBytes) {
    return {
      level: 'warn',
      message: `${name} is ${mib(size)}: reading it takes a while and about ${mib(size * 3)} of the tab's memory. Close other heavy tabs, or split the file if the page struggles.`,
    };
  }
  return { level: 'ok' };
}
