import { Box, Overlay, Stack, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
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
 * when given. Light on purpose: the wizard loads lazily.
 */
export function ImportDropZone({ database, table, children }: ImportDropZoneProps) {
  const navigate = useNavigate();
  const offer = usePendingFiles((s) => s.offer);
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them to know when the pointer really left.
  const depth = useRef(0);
  const target = { ...(database ? { database } : {}), ...(table ? { table } : {}) };
  const open = (files: File[]) => {
    offer(files, target);
    void navigate(importUrl(target));
  };
  useWindowFileDrop(open);

  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setOver(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) open(files);
  };

  return (
    <Box
      pos="relative"
      mih="100%"
      onDragEnter={onDragEnter}
      onDragLeave={onDragLeave}
      onDragOver={onDragOver}
      onDrop={onDrop}
      data-testid="import-drop-zone"
    >
      {children}
      {over && (
        <Overlay color="var(--mantine-color-body)" backgroundOpacity={0.85} blur={1} radius="md" zIndex={150}>
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
