import { ActionIcon, Paper, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconChevronRight,
  IconFolder,
  IconFolderOpen,
  IconLock,
  IconRoute,
} from '@tabler/icons-react';
import { useState } from 'react';
import type { FolderNode } from '../../../lib/folderTree';
import classes from './FolderTree.module.css';

export interface FolderTreeProps {
  tree: FolderNode[];
  /** The chosen folder; null for every journey. */
  selected: string | null;
  onSelect(folderId: string | null): void;
  /** Given for administrators only: opens the folder's permissions. */
  onPermissions?: (folder: FolderNode) => void;
}

const INDENT = 16;

/** The journeys list's folders: one tree per parent segment, nested and expandable; a folder is chosen by click. */
export function FolderTree({ tree, selected, onSelect, onPermissions }: FolderTreeProps) {
  // Folders whose open state differs from the default: parent segments open, sub-folders closed.
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setToggled((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const item = (node: FolderNode) => {
    const expanded = (node.parentId === null) !== toggled.has(node.id);
    return (
      <li key={node.id}>
        <div
          className={classes.row}
          data-active={selected === node.id || undefined}
          style={{ paddingLeft: node.depth * INDENT }}
        >
          {node.children.length > 0 ? (
            <ActionIcon
              variant="subtle"
              color="gray"
              size={22}
              aria-label={`${expanded ? 'Collapse' : 'Expand'} ${node.name}`}
              aria-expanded={expanded}
              onClick={() => toggle(node.id)}
            >
              {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            </ActionIcon>
          ) : (
            <span className={classes.spacer} />
          )}
          <UnstyledButton
            className={classes.label}
            aria-current={selected === node.id ? 'true' : undefined}
            title={node.name}
            onClick={() => onSelect(node.id)}
          >
            {expanded && node.children.length > 0 ? <IconFolderOpen size={16} /> : <IconFolder size={16} />}
            <Text span size="sm" inherit truncate>
              {node.name}
            </Text>
          </UnstyledButton>
          {onPermissions && (
            <Tooltip label="Permissions" withinPortal>
              <ActionIcon
                className={classes.action}
                variant="subtle"
                color="gray"
                size={24}
                aria-label={`Permissions of ${node.name}`}
                onClick={() => onPermissions(node)}
              >
                <IconLock size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </div>
        {expanded && node.children.length > 0 && <ul className={classes.list}>{node.children.map(item)}</ul>}
      </li>
    );
  };
  return (
    <Paper withBorder p="xs" radius="md" component="nav" aria-label="Folders">
      <div className={classes.row} data-active={selected === null || undefined}>
        <UnstyledButton
          className={classes.label}
          aria-current={selected === null ? 'true' : undefined}
          onClick={() => onSelect(null)}
        >
          <IconRoute size={16} />
          All journeys
        </UnstyledButton>
      </div>
      <ul className={classes.list}>{tree.map(item)}</ul>
    </Paper>
  );
}
