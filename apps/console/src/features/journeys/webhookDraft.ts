import { WEBHOOK_METHODS, type WebhookHeader } from '@svc/contracts';

/**
 * The webhook settings of the activation form (method, headers, body template) and their wire form, the
 * activation's connectorConfig. Saved header values never come back: a saved header shows its mask, and is
 * sent without a value so the server keeps what it stored, unless a new value is typed.
 */

export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export interface HeaderDraft {
  name: string;
  /** What was typed; empty keeps a saved value. */
  value: string;
  /** The saved value's mask, or null for a header not saved yet. */
  masked: string | null;
}

export interface WebhookDraft {
  method: WebhookMethod;
  headers: HeaderDraft[];
  bodyTemplate: string;
}

export const METHODS: readonly WebhookMethod[] = WEBHOOK_METHODS;

export function webhookDraftOf(config: Record<string, unknown> | undefined): WebhookDraft {
  const method = METHODS.find((m) => m === config?.method) ?? 'POST';
  const saved = Array.isArray(config?.headers) ? (config.headers as WebhookHeader[]) : [];
  return {
    method,
    headers: saved.map((h) => ({ name: h.name, value: '', masked: h.masked ?? (h.set ? '••••••••' : null) })),
    bodyTemplate: typeof config?.bodyTemplate === 'string' ? config.bodyTemplate : '',
  };
}

/** connectorConfig to send: `base`'s other keys kept, headers without a name left out. */
export function connectorConfigOf(draft: WebhookDraft, base: Record<string, unknown> = {}): Record<string, unknown> {
  const headers = draft.headers
    .filter((h) => h.name.trim() !== '')
    .map((h) =>
      h.value === '' && h.masked !== null ? { name: h.name.trim() } : { name: h.name.trim(), value: h.value },
    );
  return { ...base, method: draft.method, headers, bodyTemplate: draft.bodyTemplate };
}

/** A starting template naming a few of the parent segment's columns. */
export function exampleTemplate(columns: readonly string[]): string {
  const fields = columns.slice(0, 3);
  const lines = fields.map((c) => `  "${c}": "{{${c}}}"`);
  return `{\n${[...lines, '  "journey": "{{journey_id}}"', '  "test": {{test}}'].join(',\n')}\n}`;
}
