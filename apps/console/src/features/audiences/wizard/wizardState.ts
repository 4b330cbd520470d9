import type { ParentSegmentInput } from '@svc/contracts';

/** What the create wizard has collected so far (client state of one page; nothing is saved until Create). */
export interface WizardAttribute {
  key: string;
  name: string;
  table: string;
  column: string;
  /** Column of `table` that matches the master key; null for master columns. */
  foreignKey: string | null;
}

export interface WizardBehavior {
  key: string;
  name: string;
  table: string;
  foreignKey: string;
  allColumns: boolean;
  columns: string[];
}

export interface WizardState {
  name: string;
  description: string;
  database: string;
  table: string;
  parentKey: string;
  attributes: WizardAttribute[];
  behaviors: WizardBehavior[];
}

export const emptyWizard: WizardState = {
  name: '',
  description: '',
  database: '',
  table: '',
  parentKey: '',
  attributes: [],
  behaviors: [],
};

let counter = 0;
export const wizardKey = () => `w${++counter}`;

/** The POST /audiences body. Tables are all in the master's database (the pickers offer only that one). */
export function toInput(s: WizardState): ParentSegmentInput {
  return {
    name: s.name.trim(),
    description: s.description.trim() || null,
    master: { parentDatabaseName: s.database, parentTableName: s.table, parentKey: s.parentKey },
    attributes: s.attributes.map((a) => ({
      name: a.name.trim(),
      parentDatabaseName: s.database,
      parentTableName: a.table,
      parentColumn: a.column,
      foreignKey: a.foreignKey,
    })),
    behaviors: s.behaviors.map((b) => ({
      name: b.name.trim(),
      parentDatabaseName: s.database,
      parentTableName: b.table,
      foreignKey: b.foreignKey,
      allColumns: b.allColumns,
      schema: b.allColumns ? [] : b.columns.map((parentColumn) => ({ parentColumn })),
    })),
  };
}

/** The first thing that keeps a step from being complete, as a sentence; null when the step is done. */
export function stepProblem(s: WizardState, step: number): string | null {
  if (step === 0) {
    if (s.name.trim() === '') return 'Give the parent segment a name.';
    if (s.database === '') return 'Pick the database of the master table.';
    if (s.table === '') return 'Pick the master table.';
    if (s.parentKey === '') return 'Pick the key column that identifies a profile.';
  }
  if (step === 1) {
    const blank = s.attributes.find((a) => a.name.trim() === '');
    if (blank) return `Give the attribute from column "${blank.column}" a name.`;
  }
  if (step === 2) {
    const empty = s.behaviors.find((b) => !b.allColumns && b.columns.length === 0);
    if (empty) return `Select at least one column of the behavior "${empty.name}", or take all columns.`;
  }
  return null;
}
