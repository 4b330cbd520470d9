import { create } from 'zustand';
import { analyzeFile, type FileAnalysis } from './model/analyze';
import { columnNameFor } from './model/columnName';
import { type FileProfile, inferredType, mergeProfiles } from './model/profile';
import { checkFileSize } from './model/sizeLimits';
import { detectTimeForm, suggestTimeColumn } from './model/time';
import type { ColumnPlan, ReadSettings, SourceRow, TimePlan } from './model/types';
import { startProfile } from './workerClient';

export interface WizardFile {
  id: number;
  file: File;
  overrides: Partial<ReadSettings>;
  analysis: FileAnalysis | null;
  /** The whole-file scan: every key, how many rows have it, which cells fit which type. */
  profile: FileProfile | null;
  /** How far the scan is, while it runs. */
  scan: { bytesDone: number; bytesTotal: number; rows: number } | null;
  scanError: string | null;
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

/** Text files: the ones with rows to plan (ready-made parts carry their own columns and time). */
const textFiles = (files: WizardFile[]) => files.filter((f) => f.analysis?.settings.kind !== 'msgpack');

/** The whole-file scans of the text files as one, or null while one is missing. */
export function wholeProfile(files: WizardFile[]): FileProfile | null {
  const profiles: FileProfile[] = [];
  for (const f of textFiles(files)) {
    if (!f.profile) return null;
    profiles.push(f.profile);
  }
  return mergeProfiles(profiles);
}

/**
 * Every key or column found anywhere in the files (from the whole-file scans), keeping the user's choices
 * for columns already planned; types are inferred from every cell. Empty until every scan is done.
 */
function planColumns(files: WizardFile[], previous: ColumnPlan[]): ColumnPlan[] {
  const profile = wholeProfile(files);
  if (!profile) return [];
  return profile.fields.map(
    (f) =>
      previous.find((p) => p.source === f.name) ?? {
        source: f.name,
        name: columnNameFor(f.name),
        type: inferredType(f),
        skip: false,
        onInvalid: 'skip',
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
  const scans = new Map<number, { stop: () => void }>();
  const stopScan = (id: number) => {
    scans.get(id)?.stop();
    scans.delete(id);
  };
  const patchFile = (id: number, patch: Partial<WizardFile>) =>
    set({ files: get().files.map((f) => (f.id === id ? { ...f, ...patch } : f)) });
  /** Scans the whole file in a worker; the columns are planned when every scan is done. */
  const scan = (entry: WizardFile, analysis: FileAnalysis) => {
    const { settings } = analysis;
    if (settings.kind === 'msgpack' || analysis.error) return;
    if (checkFileSize(entry.file.name, entry.file.size, settings.kind).level === 'refuse') return;
    const id = entry.id;
    patchFile(id, { scan: { bytesDone: 0, bytesTotal: entry.file.size, rows: 0 } });
    const job = startProfile({ file: entry.file, settings }, (event) => {
      if (scans.get(id) !== job) return;
      if (event.type === 'progress') patchFile(id, { scan: event });
      else {
        stopScan(id);
        if (event.type === 'done') patchFile(id, { profile: event.profile, scan: null });
        else patchFile(id, { scanError: event.message, scan: null });
        replan();
      }
    });
    scans.set(id, job);
  };
  const analyze = (id: number) => {
    const entry = get().files.find((f) => f.id === id);
    if (!entry) return;
    void analyzeFile(entry.file, entry.overrides).then((analysis) => {
      const current = get().files.find((f) => f.id === id);
      if (!current || current.analysis !== null) return;
      patchFile(id, { analysis });
      scan(current, analysis);
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
    reset: (target) => {
      for (const id of [...scans.keys()]) stopScan(id);
      set({
        files: [],
        columns: [],
        time: { mode: 'import' },
        timeTouched: false,
        database: target.database ?? '',
        table: target.table ?? '',
        partRows: DEFAULT_PART_ROWS,
      });
    },
    addFiles: (files) => {
      const added: WizardFile[] = files.map((file) => ({
        id: nextId++,
        file,
        overrides: {},
        analysis: null,
        profile: null,
        scan: null,
        scanError: null,
      }));
      set({ files: [...get().files, ...added] });
      for (const f of added) analyze(f.id);
    },
    removeFile: (id) => {
      stopScan(id);
      set({ files: get().files.filter((f) => f.id !== id) });
      replan();
    },
    setOverrides: (id, overrides) => {
      stopScan(id);
      set({
        files: get().files.map((f) =>
          f.id === id
            ? { ...f, overrides: { ...f.overrides, ...overrides }, analysis: null, profile: null, scanError: null }
            : f,
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
