import { Alert, Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { SsoCertificate } from '@svc/contracts';
import { InlineTime } from '../../components/Timestamp';

export interface CertificateListProps {
  certificates: SsoCertificate[];
  warnings: string[];
}

/** What the server read from the configured certificates, and what needs attention. */
export function CertificateList({ certificates, warnings }: CertificateListProps) {
  return (
    <Stack gap="sm">
      {warnings.map((w) => (
        <Alert key={w} color="yellow" title="Certificate expiring">
          <WithReadableTimes text={w} />
        </Alert>
      ))}
      {certificates.map((c) => (
        <Table
          key={c.fingerprint_sha256}
          variant="vertical"
          withTableBorder
          layout="fixed"
          aria-label={`Certificate ${c.subject}`}
        >
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>Subject</Table.Th>
              <Table.Td>{c.subject}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Issuer</Table.Th>
              <Table.Td>{c.issuer}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>SHA-256 fingerprint</Table.Th>
              <Table.Td>
                <Code style={{ wordBreak: 'break-all' }}>{c.fingerprint_sha256}</Code>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Td>{c.key}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Valid from</Table.Th>
              <Table.Td>
                <InlineTime value={c.not_before} />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Valid until</Table.Th>
              <Table.Td>
                {/* In days, as the warning counts: "19 days left", not a relative "in 2 weeks" beside it. */}
                <InlineTime value={c.not_after} />
                {c.expires_in_days < 30 && (
                  <Badge color={c.expires_in_days < 0 ? 'red' : 'yellow'} ml="xs">
                    {c.expires_in_days < 0 ? 'Expired' : `${c.expires_in_days} days left`}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ))}
      {certificates.length === 0 && <Text c="dimmed">No certificate.</Text>}
    </Stack>
  );
}

/** ISO 8601 instants in the server's sentence, e.g. "(2027-01-04T10:00:00.000Z)", drawn as the console draws times. */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

function WithReadableTimes({ text }: { text: string }) {
  const parts: Array<string | { iso: string }> = [];
  let last = 0;
  for (const match of text.matchAll(ISO_INSTANT)) {
    parts.push(text.slice(last, match.index), { iso: match[0] });
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, in order
    typeof part === 'string' ? part : <InlineTime key={i} value={part.iso} />,
  );
}
