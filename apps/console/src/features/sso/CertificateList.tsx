import { Alert, Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { SsoCertificate } from '@svc/contracts';
import { Timestamp } from '../../components/Timestamp';

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
          {w}
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
                <Timestamp value={c.not_before} />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Valid until</Table.Th>
              <Table.Td>
                <Timestamp value={c.not_after} />
                {c.expires_in_days < 30 && (
                  <Badge color={c.expires_in_days < 0 ? 'red' : 'yellow'} mt={4}>
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
