/** The expiry choices of a new key, and the time each means. */
export type ExpiryChoice = 'never' | '7' | '30' | '90' | '365' | 'date';

export const EXPIRY_CHOICES: { value: ExpiryChoice; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
  { value: 'date', label: 'On a date…' },
];

/**
 * The ISO time a choice means from `now`, null for never; for `date`, the end of that day (UTC, so the key
 * works all of the day named), or undefined when no date is given yet.
 */
export function expiryTime(choice: ExpiryChoice, date: string, now: Date): string | null | undefined {
  if (choice === 'never') return null;
  if (choice === 'date') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
    return new Date(`${date}T23:59:59.000Z`).toISOString();
  }
  return new Date(now.getTime() + Number(choice) * 86_400_000).toISOString();
}
