import { create } from 'zustand';
import { analyzeFile, type FileAnalysis } from './model/analyze';
import { columnNameFor } from './model/columnName';
import { inferColumnType } from './model/infer';
import { detectTimeForm, suggestTimeColumn } from './model/time';
import type { ColumnPlan, ReadSettings, SourceRow, TimePlan } from './model/types';

export interface WizardFile {
  id: number;
  file: File;
  overrides: Partial<ReadSettings>;
  analysis: FileAnalysis | null;
}

export const DEFAULT_PART_ROWS = 100_000;
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

interface WizardState {
  files: WizardFile[];
  columns: ColumnPlan[];
  time: TimePlan;
  /** The user changed the time step: stop suggesting. */
  timeTouched: boolean;
  database: string;
  table: string;
  partRows: number;
  reset: (target: { database?: string; table?: string }) => void;
  addFiles: (files: File[]) => void;
  removeFile: (id: number) => void;
  setOverrides: (id: number, overrides: Partial<ReadSettings>) => void;
  setColumn: (source: string, patch: Partial<ColumnPlan>) => void;
  setTime: (time: TimePlan) => void;
  setTarget: (target: { database?: string; table?: string }) => void;
  setPartRows: (rows: number) => void;
}

let nextId = 1;

/** Sample rows of every analysed text file (ready-made parts carry their own columns and time). */
export function sampleRows(files: WizardFile[]): SourceRow[] {
  return files.flatMap((f) => (f.analysis && f.analysis.settings.kind !== 'msgpack' ? f.analysis.sample : []));
}

/** The union of the files' columns, keeping the user's choices for columns already planned. */
function planColumns(files: WizardFile[], previous: ColumnPlan[]): ColumnPlan[] {
  const sources: string[] = [];
  for (const f of files) {
    if (!f.analysis || f.analysis.settings.kind === 'msgpack') continue;
    for (const c of f.analysis.columns) if (!sources.includes(c)) sources.push(c);
  }
  const rows = sampleRows(files);
  return sources.map(
    (source) =>
      previous.find((p) => p.source === source) ?? {
        source,
        name: columnNameFor(source),
        type: inferColumnType(rows.map((r) => r[source])),
        skip: false,
      },
  );
}

function suggestTime(columns: ColumnPlan[], rows: SourceRow[]): TimePlan {
  const values = (c: string) => rows.map((r) => r[c]);
  const column = suggestTimeColumn(
    columns.map((c) => c.source),
    values,
  );
  if (column === null) return { mode: 'import' };
  const form = detectTimeForm(values(column)) ?? 'iso8601';
  return { mode: 'column', column, form, format: 'yyyy-MM-dd HH:mm:ss', timeZone: 'UTC' };
}

/** The wizard's client-only state: the files (File objects stay in memory) and the user's choices. */
export const useWizard = create<WizardState>((set, get) => {
  const replan = () => {
    const { files, columns, timeTouched, time } = get();
    const planned = planColumns(files, columns);
    set({ columns: planned, time: timeTouched ? time : suggestTime(planned, sampleRows(files)) });
  };
  const analyze = (id: number) => {
    const entry = get().files.find((f) => f.id === id);
    if (!entry) return;
    void analyzeFile(entry.file, entry.overrides).then((analysis) => {
      set({ files: get().files.map((f) => (f.id === id ? { ...f, analysis } : f)) });
      replan();
    });
  };
  return {
    files: [],
    columns: [],
    time: { mode: 'import' },
    timeTouched: false,
    database: '',
    table: '',
    partRows: DEFAULT_PART_ROWS,
    reset: (target) =>
      set({
        files: [],
        columns: [],
        time: { mode: 'import' },
        timeTouched: false,
        database: target.database ?? '',
        table: target.table ?? '',
        partRows: DEFAULT_PART_ROWS,
      }),
    addFiles: (files) => {
      const added = files.map((file) => ({ id: nextId++, file, overrides: {}, analysis: null }));
      set({ files: [...get().files, ...added] });
      for (const f of added) analyze(f.id);
    },
    removeFile: (id) => {
      set({ files: get().files.filter((f) => f.id !== id) });
      replan();
    },
    setOverrides: (id, overrides) => {
      set({
        files: get().files.map((f) =>
          f.id === id ? { ...f, overrides: { ...f.overrides, ...overrides }, analysis: null } : f,
        ),
        // Different settings can mean different columns: plan them afresh.
        columns: [],
      });
      analyze(id);
    },
    setColumn: (source, patch) =>
      set({ columns: get().columns.map((c) => (c.source === source ? { ...c, ...patch } : c)) }),
    setTime: (time) => set({ time, timeTouched: true }),
    setTarget: (target) => set(target),
    setPartRows: (partRows) => set({ partRows }),
  };
});
