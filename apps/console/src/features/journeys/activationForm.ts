import type { ActivationInput } from './api';

/** What the activation form says is wrong, per field, in the user's words (checked before anything is sent). */
export interface ActivationFormProblems {
  name?: string;
  scheduleOption?: string;
  columns?: string;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The server's activation rules (activationParams.ts) a person can break in the form. `templated`: a webhook
 * body template is set, and it names the fields each request sends, so no column list is needed.
 */
export function activationFormProblems(params: ActivationInput, templated: boolean): ActivationFormProblems {
  const found: ActivationFormProblems = {};
  if (params.name.trim() === '') found.name = 'Give the activation a name.';
  if (params.scheduleType !== 'none' && !TIME.test(params.scheduleOption ?? '')) {
    found.scheduleOption = 'Enter a time of day as HH:MM (24-hour), for example 09:00.';
  }
  if (!templated && !params.allColumns && params.columns.length === 0) {
    found.columns = 'Choose the columns to send, or turn on "Send every column".';
  }
  return found;
}
