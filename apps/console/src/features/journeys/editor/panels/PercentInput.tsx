import { NumberInput } from '@mantine/core';
import { useEffect, useState } from 'react';

export interface PercentInputProps {
  label: string;
  value: number;
  disabled?: boolean;
  onChange(value: number): void;
}

/** Why a typed share is not a whole percentage from 0 to 100, or null when it is. */
export function percentProblem(raw: string | number): string | null {
  if (raw === '') return 'Give a share from 0 to 100 %.';
  const value = Number(raw);
  if (!Number.isInteger(value)) return 'Give a whole number of percent.';
  if (value < 0 || value > 100) return `${value} % is not a share: give a number from 0 to 100.`;
  return null;
}

/**
 * A whole percentage from 0 to 100. What is typed stays as typed: an out-of-range value is shown with
 * a message and not applied, never clamped silently (the "%" sits beside the number, not in it).
 */
export function PercentInput({ label, value, disabled, onChange }: PercentInputProps) {
  const [text, setText] = useState<string | number>(value);
  useEffect(() => {
    setText((shown) => (percentProblem(shown) === null && Number(shown) !== value ? value : shown));
  }, [value]);
  const problem = percentProblem(text);
  return (
    <NumberInput
      w={110}
      label={label}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      rightSection="%"
      rightSectionPointerEvents="none"
      disabled={disabled}
      value={text}
      error={problem}
      onChange={(next) => {
        setText(next);
        if (percentProblem(next) === null) onChange(Number(next));
      }}
    />
  );
}
