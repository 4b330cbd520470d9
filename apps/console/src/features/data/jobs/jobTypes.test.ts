import { describe, expect, it } from 'vitest';
import { jobTypeOptions } from './jobTypes';

describe('jobTypeOptions', () => {
  it('lists every type the server runs, audience builds and bulk loads included', () => {
    expect(jobTypeOptions([]).map((o) => o.value)).toEqual([
      'presto',
      'trino',
      'hive',
      'bulk_import',
      'bulkload',
      'audience_build',
    ]);
  });

  it('adds types seen in the jobs or the address once, by their own name', () => {
    const options = jobTypeOptions(['presto', 'export', 'export', undefined, null, '']);
    expect(options.filter((o) => o.value === 'export')).toEqual([{ value: 'export', label: 'export' }]);
    expect(options.filter((o) => o.value === 'presto')).toHaveLength(1);
  });
});
