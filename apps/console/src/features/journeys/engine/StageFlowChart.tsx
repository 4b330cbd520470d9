import { useId } from 'react';
import { BOX_HEIGHT, BOX_WIDTH, type FlowArrow, type FlowChartInput, flowChartModel } from './flowChart';

const COLORS: Record<FlowArrow['kind'], string> = { next: '#4c6ef5', goal: '#2f9e44', exit: '#e8590c' };

/** Stage to stage: who moved on at a milestone, who reached the goal, who left by an exit criterion. */
export function StageFlowChart(props: FlowChartInput) {
  const model = flowChartModel(props);
  const id = useId();
  const summary = [
    props.goal ? `${props.goal.reached} reached the goal.` : 'No goal is set.',
    ...props.stages.map(
      ({ label, figures: f }) =>
        `${label}: ${f.entered} entered, ${f.current} in it now, ${f.flow.toNextStage} moved on, ${f.flow.toGoal} to the goal, ${f.flow.toExit} exited.`,
    ),
    `${props.exited} left by exit criteria.`,
  ].join(' ');
  return (
    <svg
      viewBox={`0 0 ${model.width} ${model.height}`}
      width="100%"
      style={{ maxWidth: model.width, display: 'block', margin: '0 auto', font: '12px system-ui, sans-serif' }}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
    >
      <title id={`${id}-title`}>Stage-to-stage flow</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      <defs>
        {(Object.keys(COLORS) as FlowArrow['kind'][]).map((kind) => (
          <marker
            key={kind}
            id={`${id}-${kind}`}
            viewBox="0 0 10 10"
            refX="8"
            refY="5"
            markerWidth="5"
            markerHeight="5"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" fill={COLORS[kind]} />
          </marker>
        ))}
      </defs>
      <Bar {...model.goalBar} fill="#ebfbee" stroke="#8ce99a" color="#2b8a3e" />
      <Bar {...model.exitBar} fill="#fff4e6" stroke="#ffc078" color="#d9480f" />
      {model.arrows.map((a) => (
        <g key={`${a.kind}-${a.x1}-${a.y1}`}>
          <line
            x1={a.x1}
            y1={a.y1}
            x2={a.x2}
            y2={a.y2}
            stroke={COLORS[a.kind]}
            strokeWidth={a.width}
            strokeOpacity={a.profiles > 0 ? 0.85 : 0.35}
            strokeDasharray={a.profiles > 0 ? undefined : '4 4'}
            markerEnd={`url(#${id}-${a.kind})`}
          />
          <text
            x={a.labelX}
            y={a.labelY}
            textAnchor={a.kind === 'next' ? 'middle' : 'start'}
            fill={a.profiles > 0 ? COLORS[a.kind] : '#868e96'}
            fontWeight={600}
          >
            {a.label}
          </text>
        </g>
      ))}
      {model.boxes.map((box) => (
        <g key={`${box.x}`}>
          <rect x={box.x} y={box.y} width={BOX_WIDTH} height={BOX_HEIGHT} rx={10} fill="#f8f9ff" stroke="#bac8ff" />
          <text x={box.x + 12} y={box.y + 22} fontWeight={700} fontSize={13} fill="#1f2433">
            {box.title.length > 26 ? `${box.title.slice(0, 25)}…` : box.title}
          </text>
          {box.lines.map((line, i) => (
            <text key={line} x={box.x + 12} y={box.y + 44 + i * 17} fill="#495057">
              {line}
            </text>
          ))}
          <rect x={box.x + 12} y={box.y + BOX_HEIGHT - 10} width={BOX_WIDTH - 24} height={4} rx={2} fill="#dbe4ff" />
          <rect
            x={box.x + 12}
            y={box.y + BOX_HEIGHT - 10}
            width={(BOX_WIDTH - 24) * box.fill}
            height={4}
            rx={2}
            fill="#4c6ef5"
          />
        </g>
      ))}
    </svg>
  );
}

function Bar(props: {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
  fill: string;
  stroke: string;
  color: string;
}) {
  return (
    <g>
      <rect
        x={props.x}
        y={props.y}
        width={props.width}
        height={props.height}
        rx={8}
        fill={props.fill}
        stroke={props.stroke}
      />
      <text
        x={props.x + props.width / 2}
        y={props.y + props.height / 2 + 4}
        textAnchor="middle"
        fontWeight={700}
        fill={props.color}
      >
        {props.label}
      </text>
    </g>
  );
}
