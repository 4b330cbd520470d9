import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { readIsoDate } from '../lib/isoDate';

export interface IsoDateFieldProps {
  label: string;
  /** The applied value, "2026-03-31" (or "2026-03-31 14:30" with `withTime`), or '' for none. */
  value: string;
  withTime?: boolean;
  /** A check of a well-written value against the rest of the form, e.g. "From is after To". */
  check?: (value: string) => string | null;
  /** Called with a checked value, or '' when the field is emptied. */
  onCommit: (value: string) => void;
  w?: number;
}

/**
 * A date typed as ISO text, the console's one date field (no native mm/dd/yyyy picker): applied when the
 * field is left or Enter is pressed, and refused with a message saying how to write it.
 */
export function IsoDateField({ label, value, withTime = false, check, onCommit, w }: IsoDateFieldProps) {
  const [text, setText] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(value);
    setError(null);
  }, [value]);
  const commit = () => {
    if (text.trim() === '') {
      setError(null);
      if (value !== '') onCommit('');
      return;
    }
    const read = readIsoDate(text, withTime);
    const problem = read.ok ? check?.(read.value) : read.message;
    if (!read.ok || problem) {
      setError(problem ?? null);
      return;
    }
    setError(null);
    setText(read.value);
    if (read.value !== value) onCommit(read.value);
  };
  return (
    <TextInput
      label={label}
      placeholder={withTime ? 'YYYY-MM-DD HH:MM' : 'YYYY-MM-DD'}
      value={text}
      error={error}
      w={w ?? (withTime ? 190 : 150)}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}
