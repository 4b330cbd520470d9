import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import type { SentLink } from '@svc/contracts';
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
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          label={label}
          value={sent.link}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          flex={1}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <CopyButton value={sent.link} timeout={2000}>
          {({ copied, copy }) => (
            <Button color={copied ? 'teal' : undefined} onClick={copy} miw={110}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        The link works once, until <InlineTime value={sent.expiresAt} />.
      </Text>
    </Stack>
  );
}
