/**
 * Job types the server runs (apps/server: QUERY_TYPES presto, trino and hive, bulk_import, bulkload,
 * audience_build), labelled for people. Types the server reports that are not listed here still appear.
 */
const KNOWN: { value: string; label: string }[] = [
  { value: 'presto', label: 'Query (presto)' },
  { value: 'trino', label: 'Query (trino)' },
  { value: 'hive', label: 'Query (hive)' },
  { value: 'bulk_import', label: 'Bulk import' },
  { value: 'bulkload', label: 'Bulk load' },
  { value: 'audience_build', label: 'Audience build' },
];

/** The type filter's options: every known type, plus any other type seen in the jobs or in the address. */
export function jobTypeOptions(seen: Iterable<string | null | undefined>): { value: string; label: string }[] {
  const options = [...KNOWN];
  for (const type of seen) {
    if (type && !options.some((o) => o.value === type)) options.push({ value: type, label: type });
  }
  return options;
}
