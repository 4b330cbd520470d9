import { Button, Group, NumberInput, Paper, Stepper, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { ColumnsStep } from './ColumnsStep';
import { FilesStep } from './FilesStep';
import { FinishStep } from './FinishStep';
import { columnNameProblem } from './model/columnName';
import { planProblems } from './model/convert';
import { keptColumns, leftOutKeys } from './model/match';
import { checkFileSize } from './model/sizeLimits';
import { compileFormat } from './model/time';
import { usePendingFiles } from './pendingFiles';
import { TargetStep } from './TargetStep';
import { TimeStep } from './TimeStep';
import { UploadStep } from './UploadStep';
import { useWindowFileDrop } from './windowDrop';
import { DEFAULT_PART_ROWS, useWizard } from './wizardStore';
import type { PrepareSummary } from './worker/prepare';

const STEPS = ['Files', 'Columns', 'Time', 'Target', 'Upload', 'Import'] as const;

function formatProblem(format: string): string | null {
  try {
    compileFormat(format);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Why the user cannot leave a step yet, or null. */
function blocker(step: number, w: ReturnType<typeof useWizard.getState>): string | null {
  const textFiles = w.files.filter((f) => f.analysis?.settings.kind !== 'msgpack');
  if (step === 0) {
    if (w.files.length === 0) return 'Add at least one file.';
    if (w.files.some((f) => !f.analysis)) return 'Reading the files…';
    for (const f of w.files) {
      const size = checkFileSize(f.file.name, f.file.size, f.analysis?.settings.kind ?? 'csv');
      if (size.level === 'refuse') return `${f.file.name} is too large to import in the browser.`;
    }
    const broken = w.files.find((f) => f.analysis?.error);
    if (broken) return `${broken.file.name} cannot be read as it is set.`;
    const failed = w.files.find((f) => f.scanError);
    if (failed) return `${failed.file.name} could not be read to the end: ${failed.scanError}`;
    const scanning = w.files.find((f) => f.scan);
    if (scanning?.scan) {
      const share = Math.floor((scanning.scan.bytesDone / Math.max(1, scanning.scan.bytesTotal)) * 100);
      return `Reading every row of ${scanning.file.name} for its keys and types (${share} %)…`;
    }
  }
  if (step === 1 && textFiles.length > 0) {
    if (w.columns.every((c) => c.skip)) return 'Import at least one column.';
    return planProblems(w.columns, w.time, columnNameProblem)[0] ?? null;
  }
  if (step === 2 && w.time.mode === 'column' && w.time.form === 'custom') return formatProblem(w.time.format);
  if (step === 3 && (w.database === '' || w.table === '')) return 'Choose or create the database and the table.';
  return null;
}

/** The import wizard: files → columns → time → target → upload → perform and commit. */
export function ImportWizardPage() {
  const [params] = useSearchParams();
  const wizard = useWizard();
  const [step, setStep] = useState(0);
  const [uploaded, setUploaded] = useState<{ session: string; summary: PrepareSummary } | null>(null);
  const [committed, setCommitted] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // Take files dropped on another page (and the target it named) once per visit of the wizard.
  const location = useLocation();
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (opened.current === location.key) return;
    opened.current = location.key;
    const { files, target } = usePendingFiles.getState().take();
    useWizard.getState().reset({
      database: target.database ?? params.get('database') ?? undefined,
      table: target.table ?? params.get('table') ?? undefined,
    });
    if (files.length > 0) useWizard.getState().addFiles(files);
  }, [params, location.key]);

  // A file dropped beside the drop area must not replace the wizard with the file: on the files step it is
  // added, later it is refused.
  const dragging = useWindowFileDrop(step === 0 ? (files) => useWizard.getState().addFiles(files) : undefined);

  const onUploaded = useCallback((session: string, summary: PrepareSummary) => {
    setUploaded({ session, summary });
    setStep(5);
  }, []);
  const onCommitted = useCallback(() => setCommitted(true), []);
  const restartUpload = useCallback(() => setAttempt((n) => n + 1), []);
  const backToTarget = useCallback(() => setStep(3), []);
  const startOver = () => {
    wizard.reset({});
    setUploaded(null);
    setCommitted(false);
    setStep(0);
  };

  const onlyParts = wizard.files.length > 0 && wizard.files.every((f) => f.analysis?.settings.kind === 'msgpack');
  const problem = blocker(step, wizard);
  const next = () => setStep((s) => (onlyParts && s === 0 ? 3 : s + 1));
  const back = () => setStep((s) => (onlyParts && s === 3 ? 0 : s - 1));

  return (
    <>
      <PageHeader
        title="Import data"
        description="Drop CSV, TSV, JSON or JSON Lines files (or ready-made msgpack.gz parts). They are read and encoded in your browser, then uploaded as a bulk import."
      />
      <Stepper
        // After the commit every step is complete, "Import" included.
        active={committed ? STEPS.length : step}
        size="sm"
        mb="lg"
        allowNextStepsSelect={false}
        onStepClick={(s) => s < step && step < 4 && setStep(s)}
      >
        {STEPS.map((label, i) => (
          <Stepper.Step
            key={label}
            label={label}
            description={onlyParts && (i === 1 || i === 2) ? 'Not needed for parts' : undefined}
          />
        ))}
      </Stepper>
      <Paper withBorder radius="md" p="md">
        {step === 0 && <FilesStep dragging={dragging} />}
        {step === 1 && <ColumnsStep />}
        {step === 2 && <TimeStep />}
        {step === 3 && <TargetStep />}
        {step === 4 && (
          <UploadStep key={attempt} onUploaded={onUploaded} onRestart={restartUpload} onBack={backToTarget} />
        )}
        {step === 5 && uploaded && (
          <FinishStep
            session={uploaded.session}
            database={wizard.database}
            table={wizard.table}
            columns={keptColumns(wizard.columns, wizard.time)}
            prepared={uploaded.summary}
            leftOut={leftOutKeys(wizard.columns, wizard.time)}
            onCommitted={onCommitted}
            onAnother={startOver}
          />
        )}
      </Paper>
      {step < 4 && (
        <Group justify="space-between" mt="md">
          <Button variant="default" disabled={step === 0} onClick={back}>
            Back
          </Button>
          <Group>
            {problem && (
              <Text size="sm" c="dimmed">
                {problem}
              </Text>
            )}
            {step === 3 && (
              <NumberInput
                label="Rows per part"
                size="xs"
                w={130}
                min={1}
                max={1_000_000}
                step={10_000}
                value={wizard.partRows}
                onChange={(v) => wizard.setPartRows(typeof v === 'number' && v >= 1 ? v : DEFAULT_PART_ROWS)}
              />
            )}
            <Button disabled={problem !== null} onClick={next}>
              {step === 3 ? 'Check and encode' : 'Next'}
            </Button>
          </Group>
        </Group>
      )}
    </>
  );
}
