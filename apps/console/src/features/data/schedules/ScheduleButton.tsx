import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { schedulePath } from '../shared/paths';
import { ScheduleModal } from './ScheduleModal';

/** The editor's "Schedule": makes a scheduled query of what the editor holds, then opens its page. */
export function ScheduleButton({ draft }: { draft: { database: string; type: string; query: string } }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button
        variant="subtle"
        leftSection={<IconCalendarPlus size={16} />}
        onClick={() => setOpen(true)}
        disabled={draft.query.trim() === '' || draft.database === ''}
      >
        Schedule
      </Button>
      {open && (
        <ScheduleModal
          draft={draft}
          onClose={() => setOpen(false)}
          onDone={(s) => {
            setOpen(false);
            notifications.show({ color: 'teal', message: `Scheduled "${s.name}".` });
            navigate(schedulePath(s.name));
          }}
        />
      )}
    </>
  );
}
