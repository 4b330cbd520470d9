import { Button, CopyButton, Group, TextInput } from '@mantine/core';

/** A read-only value in monospace with a Copy button beside it: a new key, a one-time link. */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Group align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        readOnly
        onFocus={(e) => e.currentTarget.select()}
        flex={1}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button color={copied ? 'teal' : undefined} onClick={copy} miw={110}>
            {copied ? 'Copied' : copyLabel}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
