/**
 * A small structured logger. Every line goes through `redact`, so an API key, password, cookie or
 * Authorization value can never reach the output, whatever a caller passes in.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_FIELD = /^(authorization|cookie|set-cookie|password|apikey|api_key|secret|x-svc-write-key|key)$/i;
const KEY_PATTERN = /\b\d+\/[0-9a-f]{40}\b/gi;

function redact(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(KEY_PATTERN, '[redacted key]');
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : redact(v);
    return out;
  }
  return value;
}

export function createLogger(write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Logger {
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) =>
    write(
      JSON.stringify({ t: new Date().toISOString(), level, msg: redact(msg), ...(redact(fields ?? {}) as object) }),
    );
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** A logger that keeps its lines, for tests that check what was (not) logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    createLogger((l) => lines.push(l)),
    { lines },
  );
}
