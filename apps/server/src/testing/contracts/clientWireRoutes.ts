import type { Encoding, WireFact } from './wireFact';

/**
 * The client requests of the routes issue 17 added last (decision 0023): table swap, update and
 * change_database, streaming import, and scheduled queries, as td-client-ruby (`rb:`), td-client-python
 * (`py:`) and the td CLI (`cli:`) send them (lib/td/client/api/{table,import,schedule}.rb,
 * tdclient/{table,import,schedule}_api.py, lib/td/command/{table,sched}.rb). Same form as clientWire.ts;
 * run in its order by testing/clients/wire.test.ts, after the others.
 */

const RB_PY: Encoding[] = ['form', 'multipart'];
const QUERY = 'SELECT count(*) AS n FROM events';

export const ROUTES_WIRE: WireFact[] = [
  // `td table:rename`: create the new name, swap, delete the old one (lib/td/command/table.rb).
  ...['rename_src_{f}', 'renamed_{f}'].map(
    (table): WireFact => ({
      by: ['rb:create_log_table', 'py:create_log_table', 'cli:table:rename'],
      method: 'POST',
      path: `/v3/table/create/wire_db/${table}/log`,
      encodings: RB_PY,
      reads: {},
    }),
  ),
  {
    by: ['rb:swap_table', 'py:swap_table', 'cli:table:swap', 'cli:table:rename'],
    method: 'POST',
    path: '/v3/table/swap/wire_db/rename_src_{f}/renamed_{f}',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:delete_table', 'py:delete_table', 'cli:table:rename'],
    method: 'POST',
    path: '/v3/table/delete/wire_db/rename_src_{f}',
    encodings: RB_PY,
    reads: { type: 'truthy' },
  },
  {
    by: ['rb:update_expire', 'py:update_expire', 'cli:table:expire'],
    method: 'POST',
    path: '/v3/table/update/wire_db/renamed_{f}',
    encodings: RB_PY,
    params: { expire_days: 7 },
    reads: {},
  },
  {
    by: ['rb:update_table', 'cli:table:update'],
    method: 'POST',
    path: '/v3/table/update/wire_db/renamed_{f}',
    encodings: ['form'],
    params: { include_v: false, detect_schema: true },
    reads: {},
  },
  {
    by: ['rb:list_tables', 'py:list_tables', 'cli:table:show -v'],
    method: 'GET',
    path: '/v3/table/list/wire_db',
    encodings: RB_PY,
    reads: { 'tables[].expire_days': 'integer|null', 'tables[].include_v': 'boolean' },
  },
  {
    by: ['rb:create_database', 'py:create_database'],
    method: 'POST',
    path: '/v3/database/create/wire_dest_{f}',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:change_database', 'py:change_database'],
    method: 'POST',
    path: '/v3/table/change_database/wire_db/renamed_{f}',
    encodings: RB_PY,
    params: { dest_database_name: 'wire_dest_{f}' },
    reads: {},
  },
  // Streaming import (td-client-ruby's import, td-client-python's import_data and import_file, `td table:import`).
  {
    by: ['rb:import', 'py:import_data', 'py:import_file', 'cli:table:import'],
    method: 'PUT',
    path: '/v3/table/import/wire_db/events/msgpack.gz',
    encodings: RB_PY,
    part: true,
    reads: { elapsed_time: 'number' },
  },
  {
    by: ['rb:import', 'py:import_data'],
    method: 'PUT',
    path: '/v3/table/import_with_id/wire_db/events/chunk_{f}/msgpack.gz',
    encodings: RB_PY,
    part: true,
    reads: { elapsed_time: 'number' },
  },
  // Scheduled queries. The CLI sends every option of sched:create, empty when it has no value.
  {
    by: ['rb:create_schedule', 'py:create_schedule', 'cli:sched:create'],
    method: 'POST',
    path: '/v3/schedule/create/sched_{f}',
    encodings: RB_PY,
    params: {
      cron: '0 * * * *',
      query: QUERY,
      database: 'wire_db',
      result: '',
      timezone: '',
      delay: 0,
      priority: '',
      retry_limit: '',
      type: 'hive',
      engine_version: '',
    },
    reads: { start: 'string' },
  },
  {
    by: ['rb:list_schedules', 'py:list_schedules', 'cli:sched:list', 'cli:sched:history'],
    method: 'GET',
    path: '/v3/schedule/list',
    encodings: RB_PY,
    reads: {
      'schedules[].name': 'string',
      'schedules[].cron': 'string|null',
      'schedules[].query': 'string',
      'schedules[].database': 'string',
      'schedules[].result': 'string',
      'schedules[].timezone': 'string',
      'schedules[].delay': 'integer',
      'schedules[].next_time': 'string|null',
      'schedules[].priority': 'integer',
      'schedules[].retry_limit': 'integer',
      'schedules[].created_at': 'string',
    },
  },
  {
    by: ['rb:update_schedule', 'py:update_schedule', 'cli:sched:update'],
    method: 'POST',
    path: '/v3/schedule/update/sched_{f}',
    encodings: RB_PY,
    params: { cron: '30 * * * *', delay: '60', priority: '1', retry_limit: '1', type: 'presto' },
    reads: {},
  },
  {
    by: ['rb:run_schedule', 'py:run_schedule', 'cli:sched:run'],
    method: 'POST',
    path: '/v3/schedule/run/sched_{f}/1767225600',
    encodings: RB_PY,
    params: { num: 2 },
    reads: { 'jobs[].job_id': 'present', 'jobs[].type': 'string', 'jobs[].scheduled_at': 'string' },
  },
  {
    by: ['rb:history', 'py:history', 'cli:sched:history', 'cli:sched:result'],
    method: 'GET',
    path: '/v3/schedule/history/sched_{f}?from=0&to=19',
    encodings: RB_PY,
    reads: {
      'history[].job_id': 'string',
      'history[].type': 'string',
      'history[].status': 'string',
      'history[].query': 'string',
      'history[].start_at': 'string',
      'history[].end_at': 'string',
      'history[].scheduled_at': 'string',
      'history[].result': 'string',
      'history[].priority': 'integer',
      'history[].database': 'string',
    },
  },
  {
    by: ['rb:delete_schedule', 'py:delete_schedule', 'cli:sched:delete'],
    method: 'POST',
    path: '/v3/schedule/delete/sched_{f}',
    encodings: RB_PY,
    reads: { cron: 'present', query: 'string' },
  },
];
