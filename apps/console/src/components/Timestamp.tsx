import { Text, Tooltip } from '@mantine/core';
import { formatExact, formatRelative } from '../lib/time';

export interface TimestampProps {
  /** ISO 8601 time, or null for something that never happened. */
  value: string | null;
  /** Shown for null, e.g. "never". */
  empty?: string;
}

/** The same instant in UTC, for the hover text of every time the console shows. */
function utcText(date: Date): string {
  return formatExact(date, 'en-GB', 'UTC');
}

/** An instant inside a sentence: the console's one format, in the viewer's time zone, UTC on hover. */
export function InlineTime({ value }: { value: string }) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <time dateTime={date.toISOString()} title={utcText(date)}>
      {formatExact(date)}
    </time>
  );
}

/** Relative time ("5 minutes ago") with the exact time under it; the time in UTC on hover. */
export function Timestamp({ value, empty = '—' }: TimestampProps) {
  if (value === null) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <Text size="sm">{value}</Text>;
  const exact = formatExact(date);
  return (
    <Tooltip label={utcText(date)} openDelay={300}>
      <time dateTime={date.toISOString()}>
        <Text size="sm" component="span" display="block">
          {formatRelative(date, new Date())}
        </Text>
        <Text size="xs" c="dimmed" component="span" display="block">
          {exact}
        </Text>
      </time>
    </Tooltip>
  );
}
