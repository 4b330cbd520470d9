import { Menu } from '@mantine/core';
import type { StepType } from '@svc/journey';
import { stepTypes } from '@svc/journey';
import { IconClipboard } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useMemo, useRef, useState } from 'react';
import { useEditor, useEditorStore } from '../EditorContext';
import { edgeRefFor } from '../model/edgeRef';
import type { JourneyEdgeData } from '../model/flow';
import { KIND_LOOKS } from '../nodes/kindLooks';

interface InsertMenuApi {
  /** Opens under `anchor` (a "+" button, or a node from its context menu), which gets focus back on close. */
  open(data: JourneyEdgeData, anchor: HTMLElement, label: string): void;
}

const InsertMenuContext = createContext<InsertMenuApi | null>(null);

export function useInsertMenu(): InsertMenuApi {
  const api = useContext(InsertMenuContext);
  if (!api) throw new Error('useInsertMenu needs an InsertMenuProvider.');
  return api;
}

/**
 * One menu of step kinds for every "+" on the canvas (hundreds of edges share it), shown under the
 * button that opened it.
 */
function focusWhenShown(element: HTMLButtonElement | null) {
  if (element) requestAnimationFrame(() => element.focus());
}

export function InsertMenuProvider({ children }: { children: ReactNode }) {
  const store = useEditorStore();
  const hasClipboard = useEditor((s) => s.clipboard !== null);
  const [current, setCurrent] = useState<{ data: JourneyEdgeData; rect: DOMRect; label: string } | null>(null);
  const button = useRef<HTMLElement | null>(null);
  const api = useMemo<InsertMenuApi>(
    () => ({
      open: (data, element, label) => {
        button.current = element;
        setCurrent({ data, rect: element.getBoundingClientRect(), label });
      },
    }),
    [],
  );
  const at = () => {
    if (!current) return null;
    const { journey } = store.getState();
    return {
      stageIndex: current.data.stageIndex,
      after: edgeRefFor(journey, current.data.stageIndex, current.data.stepId, current.data.handle),
    };
  };
  const insert = (stepType: StepType) => {
    const where = at();
    if (where) store.getState().addStep(where, stepType);
  };
  const close = () => {
    setCurrent(null);
    button.current?.focus();
  };
  return (
    <InsertMenuContext.Provider value={api}>
      {children}
      {current && (
        <Menu
          opened
          onChange={(opened) => !opened && close()}
          position="bottom"
          shadow="md"
          width={220}
          returnFocus={false}
          trapFocus={false}
        >
          <Menu.Target>
            <div
              style={{
                position: 'fixed',
                left: current.rect.left,
                top: current.rect.top,
                width: current.rect.width,
                height: current.rect.height,
                pointerEvents: 'none',
              }}
            />
          </Menu.Target>
          <Menu.Dropdown aria-label={current.label}>
            {stepTypes.map((type, index) => (
              <Menu.Item
                key={type}
                // The first kind takes focus, so the menu works from the keyboard at once.
                ref={index === 0 ? focusWhenShown : undefined}
                leftSection={
                  <span className="jc-icon" style={{ background: KIND_LOOKS[type].color, width: 22, height: 22 }}>
                    {KIND_LOOKS[type].icon}
                  </span>
                }
                onClick={() => insert(type)}
              >
                {KIND_LOOKS[type].label}
              </Menu.Item>
            ))}
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconClipboard size={16} />}
              disabled={!hasClipboard}
              onClick={() => {
                const where = at();
                if (where) store.getState().paste(where);
              }}
            >
              Paste copied steps
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </InsertMenuContext.Provider>
  );
}
