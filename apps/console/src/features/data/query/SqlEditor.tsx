import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  closeCompletion,
  completionKeymap,
  completionStatus,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { type SQLNamespace, sql } from '@codemirror/lang-sql';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { type RefObject, useEffect, useRef } from 'react';
import { PrestoSQL } from './prestoDialect';

export interface SqlEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl+Enter (⌘+Enter) runs the query. */
  onRun: () => void;
  /** Tables and their columns, for completion. */
  tables: Record<string, string[]>;
  /** A table whose columns complete without a qualifier. */
  defaultTable?: string | undefined;
  /** The engine's error, underlined at its place in the query. */
  error?: { from: number; to: number; message: string } | null;
  label?: string;
  /** Set to a function that puts text at the cursor (the schema browser's clicks). */
  inserter?: RefObject<((text: string) => void) | null>;
}

const theme = EditorView.theme({
  '&': {
    minHeight: '180px',
    maxHeight: '50vh',
    fontSize: 'var(--mantine-font-size-sm)',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-md)',
    backgroundColor: 'var(--mantine-color-body)',
  },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', overflow: 'auto' },
  '.cm-content': { minHeight: '180px' },
  '.cm-gutters': { borderRadius: 'var(--mantine-radius-md) 0 0 var(--mantine-radius-md)' },
});

/**
 * Completion stays with the editor's focus. CodeMirror closes an open list on blur, but a list whose
 * source answers after the blur (typing, then at once clicking "Save as") would open over the dialog that
 * took the focus and swallow its clicks.
 */
const completionOnlyWhileFocused = EditorView.updateListener.of((update) => {
  const view = update.view;
  if (completionStatus(update.state) === null || view.root.activeElement === view.contentDOM) return;
  // A view cannot be updated from inside its own update.
  setTimeout(() => {
    if (completionStatus(view.state) !== null && view.root.activeElement !== view.contentDOM) closeCompletion(view);
  }, 0);
});

function language(tables: Record<string, string[]>, defaultTable: string | undefined) {
  const schema: SQLNamespace = tables;
  return sql({
    dialect: PrestoSQL,
    schema,
    upperCaseKeywords: true,
    ...(defaultTable && tables[defaultTable] ? { defaultTable } : {}),
  });
}

/** CodeMirror 6 with SQL highlighting, completion of keywords, tables and columns, and error marks. */
export function SqlEditor({
  value,
  onChange,
  onRun,
  tables,
  defaultTable,
  error,
  label = 'SQL query',
  inserter,
}: SqlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageConf = useRef(new Compartment());
  // The editor is built once; these refs let its callbacks see the latest props.
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once; later props are applied below
  useEffect(() => {
    if (!host.current) return;
    const state = EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        autocompletion({ activateOnTyping: true, icons: false }),
        completionOnlyWhileFocused,
        lintGutter(),
        languageConf.current.of(language(tables, defaultTable)),
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                latest.current.onRun();
                return true;
              },
            },
          ]),
        ),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.lineWrapping,
        theme,
      ],
    });
    const editor = new EditorView({ state, parent: host.current });
    view.current = editor;
    if (inserter) {
      inserter.current = (text: string) => {
        editor.dispatch(editor.state.replaceSelection(text));
        editor.focus();
      };
    }
    return () => {
      if (inserter) inserter.current = null;
      view.current?.destroy();
      view.current = null;
    };
  }, []);

  // A value set from outside (a recent query, a job reopened) replaces the text.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: languageConf.current.reconfigure(language(tables, defaultTable)) });
  }, [tables, defaultTable]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const length = v.state.doc.length;
    const diagnostics =
      error && error.from <= length
        ? [
            {
              from: error.from,
              to: Math.min(Math.max(error.to, error.from), length),
              severity: 'error' as const,
              message: error.message,
            },
          ]
        : [];
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [error]);

  return <div ref={host} data-testid="sql-editor" />;
}
