import { describe, expect, it } from 'vitest';
import { connectorConfigOf, exampleTemplate, webhookDraftOf } from './webhookDraft';

describe('webhook drafts', () => {
  it('reads a saved config with masked headers and sends saved headers back without a value', () => {
    const draft = webhookDraftOf({
      method: 'PUT',
      headers: [{ name: 'Authorization', value: null, masked: '••••••••6789', set: true }],
      bodyTemplate: '{"a": "{{email}}"}',
      mode: 'append',
    });
    expect(draft).toEqual({
      method: 'PUT',
      headers: [{ name: 'Authorization', value: '', masked: '••••••••6789' }],
      bodyTemplate: '{"a": "{{email}}"}',
    });
    draft.headers.push({ name: ' X-New ', value: 'v', masked: null }, { name: '', value: 'dropped', masked: null });
    expect(connectorConfigOf(draft, { mode: 'append' })).toEqual({
      mode: 'append',
      method: 'PUT',
      headers: [{ name: 'Authorization' }, { name: 'X-New', value: 'v' }],
      bodyTemplate: '{"a": "{{email}}"}',
    });
  });

  it('replaces a saved value when one is typed, and defaults to a plain POST', () => {
    const draft = webhookDraftOf(undefined);
    expect(draft).toEqual({ method: 'POST', headers: [], bodyTemplate: '' });
    const typed = { ...draft, headers: [{ name: 'Authorization', value: 'Bearer new', masked: '••••' }] };
    expect(connectorConfigOf(typed).headers).toEqual([{ name: 'Authorization', value: 'Bearer new' }]);
  });

  it('offers an example template that is JSON once filled', () => {
    const filled = exampleTemplate(['email', 'tier'])
      .replace(/"\{\{\w+\}\}"/g, '"x"')
      .replace(/\{\{\w+\}\}/g, 'true');
    expect(JSON.parse(filled)).toEqual({ email: 'x', tier: 'x', journey: 'x', test: true });
  });
});
