import { Alert, Stack, Text } from '@mantine/core';
import type { SentLink } from '@svc/contracts';
import { CopyField } from '../../components/CopyField';
import { InlineTime } from '../../components/Timestamp';

/** A one-time link to copy, with whether it was also e-mailed (or why not) and until when it works. */
export function LinkToCopy({ sent, label, to }: { sent: SentLink; label: string; to: string }) {
  return (
    <Stack>
      {sent.emailed ? (
        <Alert color="teal" title="E-mail sent">
          The link was e-mailed to {to}. You can also copy it and send it yourself.
        </Alert>
      ) : sent.emailProblem ? (
        <Alert color="orange" title="The e-mail was not sent">
          {sent.emailProblem}
        </Alert>
      ) : (
        <Alert color="blue" title="Send this link yourself">
          This server sends no e-mail (no SMTP server is configured). Copy the link and send it to {to}.
        </Alert>
      )}
      <CopyField label={label} value={sent.link} copyLabel="Copy link" />
      <Text size="sm" c="dimmed">
        The link works once, until <InlineTime value={sent.expiresAt} />.
      </Text>
    </Stack>
  );
}
