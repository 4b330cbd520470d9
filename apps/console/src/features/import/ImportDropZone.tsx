import { Box, Overlay, Stack, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import type { DragEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { importUrl } from './importUrl';
import { type ImportTarget, usePendingFiles } from './pendingFiles';
import { useWindowFileDrop } from './windowDrop';

export interface ImportDropZoneProps extends ImportTarget {
  children: ReactNode;
}

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Wraps a data page: files dropped anywhere on it (or anywhere in the window, the navigation included)
 * open the import wizard with those files, and with the page's database and table chosen as the target
 * when given. While files are dragged over the window, a highlight covers it and says where they go.
 * Light on purpose: the wizard loads lazily.
 */
export function ImportDropZone({ database, table, children }: ImportDropZoneProps) {
  const navigate = useNavigate();
  const offer = usePendingFiles((s) => s.offer);
  const target = { ...(database ? { database } : {}), ...(table ? { table } : {}) };
  const open = (files: File[]) => {
    offer(files, target);
    void navigate(importUrl(target));
  };
  // Files dragged anywhere over the window (the navigation included) are taken: highlight while they are.
  const dragging = useWindowFileDrop(open);

  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) open(files);
  };

  return (
    <Box pos="relative" mih="100%" onDragOver={onDragOver} onDrop={onDrop} data-testid="import-drop-zone">
      {children}
      {dragging && (
        <Overlay
          fixed
          color="var(--mantine-color-body)"
          backgroundOpacity={0.85}
          blur={1}
          zIndex={300}
          data-testid="import-drop-highlight"
          style={{ outline: '3px dashed var(--mantine-color-blue-filled)', outlineOffset: -12 }}
        >
          <Stack align="center" justify="center" h="100%" gap="xs" style={{ pointerEvents: 'none' }}>
            <IconFileImport size={48} stroke={1.5} aria-hidden />
            <Text fw={600}>Drop files to import them</Text>
            <Text size="sm" c="dimmed">
              CSV, TSV, JSON, JSON Lines or .msgpack.gz parts
              {database ? ` into ${database}${table ? `.${table}` : ''}` : ''}
            </Text>
          </Stack>
        </Overlay>
      )}
    </Box>
  );
}
