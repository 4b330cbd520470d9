/** Structural limits on the msgpack records of a part. Checked on the headers, before anything is allocated. */
export interface RecordLimits {
  /** Encoded bytes of one record (one top-level map). */
  maxRecordBytes: number;
  /** Bytes of one str or bin value. */
  maxStringBytes: number;
  /** Items of one array. */
  maxArrayLength: number;
  /** Entries of one map (the top-level map's entries are the record's columns). */
  maxMapSize: number;
  /** Nesting of maps and arrays; the record itself is depth 1. */
  maxDepth: number;
}

/** Limits on a whole part: its compressed upload and the msgpack stream inside. */
export interface PartLimits extends RecordLimits {
  maxCompressedBytes: number;
  maxDecompressedBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Defaults sized for the parts real clients write (the CLI starts a new part about every 16 MB of
 * msgpack): generous for them, small enough that a hostile part cannot hold the server's memory.
 */
export const defaultPartLimits: PartLimits = {
  maxCompressedBytes: 256 * MiB,
  maxDecompressedBytes: 1024 * MiB,
  maxRecordBytes: 16 * MiB,
  maxStringBytes: 8 * MiB,
  maxArrayLength: 100_000,
  maxMapSize: 10_000,
  maxDepth: 32,
};
