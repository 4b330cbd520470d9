import { Alert, Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { SsoCertificate } from '@svc/contracts';
import { InlineTime } from '../../components/Timestamp';

export interface CertificateListProps {
  certificates: SsoCertificate[];
  warnings: string[];
  /** Whether the setting follows a metadata URL, which drops the old certificate by itself. */
  followsMetadata: boolean;
}

/** A rollover in progress: which certificate is new, since when, and what happens to the old one. */
function RolloverNotice({ certificate, followsMetadata }: { certificate: SsoCertificate; followsMetadata: boolean }) {
  return (
    <Alert color="blue" title="Certificate rollover">
      The identity provider lists a new signing certificate, {certificate.subject}
      {certificate.first_seen_at && (
        <>
          , seen since <InlineTime value={certificate.first_seen_at} />
        </>
      )}
      . Sign-ins signed with the old or the new certificate are accepted while both are listed;{' '}
      {followsMetadata
        ? 'the old one is dropped when the metadata no longer lists it.'
        : 'remove the old one here once the identity provider signs with the new one.'}
    </Alert>
  );
}

/** What the server read from the configured certificates, and what needs attention. */
export function CertificateList({ certificates, warnings, followsMetadata }: CertificateListProps) {
  const newest = certificates.find((c) => c.rollover === 'new');
  return (
    <Stack gap="sm">
      {newest && <RolloverNotice certificate={newest} followsMetadata={followsMetadata} />}
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
              <Table.Td>
                {c.subject}
                {c.rollover && (
                  <Badge color={c.rollover === 'new' ? 'blue.8' : 'gray.7'} ml="xs">
                    {c.rollover === 'new' ? 'New certificate' : 'Old certificate'}
                  </Badge>
                )}
              </Table.Td>
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
            {c.first_seen_at && (
              <Table.Tr>
                <Table.Th>First seen</Table.Th>
                <Table.Td>
                  <InlineTime value={c.first_seen_at} />
                </Table.Td>
              </Table.Tr>
            )}
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
