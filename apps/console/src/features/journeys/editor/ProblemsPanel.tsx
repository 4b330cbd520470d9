import { Text } from '@mantine/core';
import { useEditor, useEnvironment } from './EditorContext';
import type { Problem } from './model/problems';
import { ProblemList } from './panels/ProblemList';

/** Every problem of the draft; choosing one goes to its step or stage. */
export function ProblemsPanel() {
  const problems = useEditor((s) => s.problems.all);
  const select = useEditor((s) => s.select);
  const launched = useEditor((s) => s.journey.state === 'launched');
  const { focusNode } = useEnvironment();
  const pick = (p: Problem) => {
    if (p.path.stepId) focusNode(p.path.stepId);
    else if (p.path.stageIndex !== undefined) focusNode(`start-${p.path.stageIndex}`);
    else select({ kind: 'journey' });
  };
  if (problems.length === 0) {
    return (
      <Text size="sm" c="teal" p="xs" role="status">
        {/* A launched journey runs already: "ready to launch" would say it does not. */}
        {launched ? 'No problems: the journey runs as designed.' : 'No problems: ready to launch.'}
      </Text>
    );
  }
  return (
    <div style={{ padding: 8 }}>
      <ProblemList problems={problems} title={`Problems (${problems.length})`} onPick={pick} />
    </div>
  );
}
