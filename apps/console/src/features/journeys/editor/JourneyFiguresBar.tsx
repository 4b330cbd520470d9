import { useEditor, useEnvironment } from './EditorContext';
import { useCanvasFigures } from './FiguresContext';
import { formatWindow } from './model/figures';

/** The journey's own figures beside the canvas toolbar: window, entered, in the journey, goal, left. */
export function JourneyFiguresBar() {
  const figures = useCanvasFigures();
  const goal = useEditor((s) => s.journey.goal);
  const { segments } = useEnvironment();
  if (!figures) return null;
  const { journey } = figures;
  const goalName =
    goal?.name || (goal?.segmentId ? (segments.find((s) => s.id === goal.segmentId)?.name ?? null) : null);
  const items: Array<[string, string]> = [
    ['Entered', journey.entered.toLocaleString('en')],
    ['In the journey', journey.current.toLocaleString('en')],
    [
      goalName ? `Goal “${goalName}”` : 'Goal',
      goal?.segmentId ? `${journey.goalReached.toLocaleString('en')} reached` : 'none set',
    ],
    ['Left', journey.left.toLocaleString('en')],
  ];
  return (
    <div className="jc-journey-figures">
      <section aria-label="Journey figures">
        <span className="jc-journey-window" title={`Statistics window: ${formatWindow(figures.window)} (UTC)`}>
          {formatWindow(figures.window, true)}
        </span>
        <dl>
          {items.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
