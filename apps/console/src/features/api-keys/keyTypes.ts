import type { ApiKeyType } from '@svc/contracts';

interface KeyTypeInfo {
  label: string;
  color: string;
  description: string;
}

/** What each type of key may do, in the words the create form and the list use. */
export const keyTypes: Record<ApiKeyType, KeyTypeInfo> = {
  master: {
    label: 'Master',
    color: 'indigo',
    description:
      'Acts as you on the whole REST API: reads and changes data, runs queries and manages users and keys. Keep it on servers you control.',
  },
  'write-only': {
    label: 'Write-only',
    color: 'teal',
    description:
      'Can only import data (record ingestion and bulk import) and cannot read anything back, so it is the one to put in SDKs, scripts and data pipelines.',
  },
};
