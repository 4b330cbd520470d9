import { Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { cellText } from '../shared/cellText';
import type { Column } from '../shared/format';
import classes from './ResultGrid.module.css';

export interface ResultGridProps {
  columns: Column[];
  rows: unknown[][];
  /** Accessible name of the grid, e.g. "Result of job 12". */
  label: string;
  height?: number;
}

const ROW_HEIGHT = 30;
const NUMBER_WIDTH = 64;

/** Widths from the names, types and the first rows' values: wide enough to read, never huge. */
function columnWidths(columns: Column[], rows: unknown[][]): number[] {
  return columns.map((c, i) => {
    let chars = c.name.length + 1 + c.type.length;
    for (const row of rows.slice(0, 200)) chars = Math.max(chars, cellText(row[i]).length);
    return Math.min(420, Math.max(90, chars * 8 + 24));
  });
}

/** Result columns may repeat a name (`SELECT 1, 1`): each gets a key of its own. */
function keyedColumns(columns: Column[]): (Column & { key: string; index: number })[] {
  const seen = new Map<string, number>();
  return columns.map((c, index) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return { ...c, index, key: n === 1 ? c.name : `${c.name}~${n}` };
  });
}

/**
 * A result table that renders only the rows in view, so tens of thousands of rows scroll smoothly.
 * Headers show each column's name and type.
 */
export function ResultGrid({ columns, rows, label, height = 420 }: ResultGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const widths = useMemo(() => columnWidths(columns, rows), [columns, rows]);
  const keyed = useMemo(() => keyedColumns(columns), [columns]);
  const template = `${NUMBER_WIDTH}px ${widths.map((w) => `${w}px`).join(' ')}`;
  const totalWidth = NUMBER_WIDTH + widths.reduce((a, b) => a + b, 0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  return (
    <div
      ref={scroller}
      className={classes.scroller}
      style={{ height: Math.min(height, ROW_HEIGHT * (rows.length + 1) + 16) }}
      // The grid scrolls: keyboard users reach it with Tab and scroll with the arrow keys.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
      tabIndex={0}
    >
      <table className={classes.table} style={{ width: totalWidth }} aria-label={label} aria-rowcount={rows.length + 1}>
        <thead className={classes.header}>
          <tr className={classes.headerRow} aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            <th className={classes.number} scope="col">
              #
            </th>
            {keyed.map((c) => (
              <th key={c.key} className={classes.headerCell} scope="col" title={`${c.name} (${c.type})`}>
                <Text span fw={600} size="sm" ff="monospace">
                  {c.name}
                </Text>{' '}
                <Text span size="xs" c="dimmed" ff="monospace">
                  {c.type}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={classes.body} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index] ?? [];
            return (
              <tr
                key={item.key}
                aria-rowindex={item.index + 2}
                className={classes.row}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <td className={classes.number}>{item.index + 1}</td>
                {keyed.map((c) => {
                  const value = row[c.index];
                  return (
                    <td key={c.key} className={value === null || value === undefined ? classes.nullCell : classes.cell}>
                      {cellText(value)}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
