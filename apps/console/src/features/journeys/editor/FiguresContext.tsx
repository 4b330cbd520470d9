import { createContext, type ReactNode, useContext } from 'react';
import type { CanvasFigures, StageFigures, StepFigures } from './model/figures';

/**
 * The engine's figures for the canvas (server data, so not in the editor store). Absent for drafts and
 * while statistics load: nodes then draw no figures. Nodes read them here, as they read their problems
 * from the store, so node data stays the journey alone.
 */
const FiguresContext = createContext<CanvasFigures | null>(null);

export function FiguresProvider(props: { figures: CanvasFigures | null; children: ReactNode }) {
  return <FiguresContext.Provider value={props.figures}>{props.children}</FiguresContext.Provider>;
}

export function useCanvasFigures(): CanvasFigures | null {
  return useContext(FiguresContext);
}

export function useStepFigures(stepId: string): StepFigures | undefined {
  return useContext(FiguresContext)?.steps.get(stepId);
}

export function useStageFigures(stageIndex: number): StageFigures | undefined {
  return useContext(FiguresContext)?.stages.get(stageIndex);
}
