/** The shape of one fact of clientWire.ts: a call as a real client sends it and what it reads back. */

export type Encoding = 'form' | 'multipart' | 'json';

export interface WireFact {
  by: string[];
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  encodings: Encoding[];
  params?: Record<string, unknown>;
  key?: 'user' | 'none';
  status?: number;
  reads: Record<string, string> | 'msgpack' | 'gzip' | 'text';
  /** A job the answer names (`job_id`) that the next calls need ended. */
  settle?: true;
  part?: true;
}

export const RB_PY: Encoding[] = ['form', 'multipart'];
