import { LOAD_WIRE } from './clientWireLoads';
import { RB_PY, type WireFact } from './wireFact';

/**
 * What td-client-ruby 3.0.0 (`rb:`), td-client-python 1.7.0 (`py:`) and the td CLI 0.19.1 (`cli:`, on top of
 * td-client-ruby) send for each call, and what they read from the answer: our own record of the facts of
 * their public sources (lib/td/client/api/*.rb, tdclient/*_api.py, lib/td/command/*.rb) and of the shared
 * wire reference. `testing/clients/wire.test.ts` sends each request exactly so and checks the answer.
 *
 * - `encodings`: `form` is td-client-ruby and the CLI (x-www-form-urlencoded, sent even when empty);
 *   `multipart` is td-client-python (multipart/form-data, or no body at all when there are no parameters);
 *   `json` is both clients' bulk-load calls (`application/json; charset=utf-8`). `part`: the body is a bulk
 *   import part (gzip of msgpack maps) as `application/octet-stream`, whatever the client.
 * - Paths and values may hold `{f}` (the encoding's short name, so each encoding works on its own objects)
 *   and the world's names: `{job}` (a finished presto job), `{masked_key}` (a spare key of the user `wire_{f}`,
 *   as listings show it).
 * - `reads`: the fields the clients read, by path (`a.b`, `list[].field` for every element of a non-empty
 *   list), with the type they need: `string`, `integer`, `boolean`, `present` (any value, null too),
 *   `truthy` (RB `checked_json` needs non-null), `object`, `array`, `json-text` (a JSON-encoded string),
 *   and `|null` where null is fine. Or the kind of a non-JSON body: `msgpack`, `gzip`, `text`.
 * - `status`: the answer's status when it is not 200 (calls this server does not offer: 422).
 * - `key`: `user` when the client calls with the key of `wire_{f}` rather than the administrator's; `none`
 *   when it sends no Authorization (`td -e` probing the endpoint, `td account` authenticating).
 */

export const CLIENT_WIRE: WireFact[] = [
  // §1.1: `td -e <endpoint>` first probes the endpoint without a key.
  {
    by: ['rb:server_status', 'py:server_status', 'cli:server:status', 'cli:-e'],
    method: 'GET',
    path: '/v3/system/server_status',
    encodings: RB_PY,
    key: 'none',
    reads: { status: 'truthy' },
  },
  {
    by: ['rb:show_account', 'cli:account:usage'],
    method: 'GET',
    path: '/v3/account/show',
    encodings: ['form'],
    reads: {
      account: 'truthy',
      'account.id': 'integer',
      'account.storage_size': 'integer',
      'account.created_at': 'string',
    },
  },
  // Users and keys.
  {
    by: ['rb:list_users', 'py:list_users', 'cli:user:list'],
    method: 'GET',
    path: '/v3/user/list',
    encodings: RB_PY,
    reads: { 'users[].name': 'string', 'users[].email': 'string' },
  },
  {
    by: ['rb:add_user', 'py:add_user', 'cli:user:create'],
    method: 'POST',
    path: '/v3/user/add/new_{f}',
    encodings: RB_PY,
    params: { organization: '', email: 'new_{f}@first.test', password: 'a new wire password' },
    reads: {},
  },
  {
    by: ['rb:list_apikeys', 'py:list_apikeys', 'cli:user:apikey:list'],
    method: 'GET',
    path: '/v3/user/apikey/list/wire_{f}',
    encodings: RB_PY,
    reads: { apikeys: 'array' },
  },
  {
    by: ['rb:add_apikey', 'py:add_apikey', 'cli:user:apikey:add'],
    method: 'POST',
    path: '/v3/user/apikey/add/new_{f}',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:remove_apikey', 'py:remove_apikey', 'cli:user:apikey:remove'],
    method: 'POST',
    path: '/v3/user/apikey/remove/wire_{f}',
    encodings: RB_PY,
    params: { apikey: '{masked_key}' },
    reads: {},
  },
  {
    by: ['rb:authenticate', 'py:authenticate', 'cli:account'],
    method: 'POST',
    path: '/v3/user/authenticate',
    encodings: RB_PY,
    key: 'none',
    params: { user: 'wire_{f}@first.test', password: 'a wire password 1' },
    reads: { apikey: 'truthy' },
  },
  {
    by: ['rb:change_password', 'cli:user:password:change'],
    method: 'POST',
    path: '/v3/user/password/change/wire_{f}',
    encodings: RB_PY,
    params: { password: 'set by the admin 2' },
    reads: {},
  },
  {
    by: ['rb:change_my_password', 'cli:password:change'],
    method: 'POST',
    path: '/v3/user/password/change',
    encodings: RB_PY,
    key: 'user',
    params: { old_password: 'set by the admin 2', password: 'changed by me 3' },
    reads: {},
  },
  {
    by: ['rb:change_email'],
    method: 'POST',
    path: '/v3/user/email/change/wire_{f}',
    encodings: RB_PY,
    params: { email: 'moved_{f}@first.test' },
    reads: {},
  },
  {
    by: ['rb:remove_user', 'py:remove_user', 'cli:user:delete'],
    method: 'POST',
    path: '/v3/user/remove/new_{f}',
    encodings: RB_PY,
    reads: {},
  },
  // Databases and tables (§2.1, §2.2).
  {
    by: ['rb:list_databases', 'py:list_databases', 'cli:db:list', 'cli:(every command that names a database)'],
    method: 'GET',
    path: '/v3/database/list',
    encodings: RB_PY,
    reads: {
      'databases[].name': 'string',
      'databases[].count': 'integer',
      'databases[].created_at': 'string',
      'databases[].updated_at': 'string',
      'databases[].permission': 'string',
    },
  },
  {
    by: ['rb:create_database', 'py:create_database', 'cli:db:create'],
    method: 'POST',
    path: '/v3/database/create/db_{f}',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:delete_database', 'py:delete_database', 'cli:db:delete'],
    method: 'POST',
    path: '/v3/database/delete/db_{f}',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:list_tables', 'py:list_tables', 'cli:table:list', 'cli:table:show'],
    method: 'GET',
    path: '/v3/table/list/wire_db',
    encodings: RB_PY,
    reads: {
      tables: 'truthy',
      'tables[].name': 'string',
      'tables[].type': 'string',
      'tables[].count': 'integer',
      'tables[].estimated_storage_size': 'integer',
      'tables[].schema': 'json-text',
      'tables[].expire_days': 'present',
      'tables[].include_v': 'present',
      'tables[].counter_updated_at': 'string|null',
      'tables[].last_log_timestamp': 'string|null',
      'tables[].created_at': 'string',
      'tables[].updated_at': 'string',
    },
  },
  {
    by: ['rb:create_log_table', 'py:create_log_table', 'cli:table:create'],
    method: 'POST',
    path: '/v3/table/create/wire_db/t_{f}/log',
    encodings: RB_PY,
    reads: {},
  },
  {
    by: ['rb:update_schema', 'py:update_schema', 'cli:schema:set'],
    method: 'POST',
    path: '/v3/table/update-schema/wire_db/t_{f}',
    encodings: RB_PY,
    params: { schema: '[["page","string"],["n","long"]]' },
    reads: {},
  },
  {
    by: ['rb:delete_table', 'py:delete_table', 'cli:table:delete'],
    method: 'POST',
    path: '/v3/table/delete/wire_db/t_{f}',
    encodings: RB_PY,
    reads: { type: 'string' },
  },
  {
    by: ['rb:tail', 'py:tail', 'cli:table:tail'],
    method: 'GET',
    path: '/v3/table/tail/wire_db/events?count=2&format=msgpack',
    encodings: RB_PY,
    reads: 'msgpack',
  },
  // Jobs (§2.3).
  {
    by: ['rb:query', 'cli:query -T presto'],
    method: 'POST',
    path: '/v3/job/issue/presto/wire_db',
    encodings: ['form'],
    params: { query: 'SELECT 1 AS one', type: 'presto' },
    reads: { job_id: 'truthy' },
    settle: true,
  },
  {
    by: ['py:query'],
    method: 'POST',
    path: '/v3/job/issue/presto/wire_db',
    encodings: ['multipart'],
    params: { query: 'SELECT 1 AS one', priority: '1' },
    reads: { job_id: 'truthy', job: 'present', database: 'string' },
    settle: true,
  },
  {
    by: ['rb:hive_query', 'py:query (default type)', 'cli:query (default type)'],
    method: 'POST',
    path: '/v3/job/issue/hive/wire_db',
    encodings: RB_PY,
    params: { query: 'SELECT count(1) AS n FROM events' },
    reads: { job_id: 'truthy' },
    settle: true,
  },
  {
    by: ['rb:query(result_url)', 'py:query(result_url=)', 'cli:query -r'],
    method: 'POST',
    path: '/v3/job/issue/presto/wire_db',
    encodings: RB_PY,
    params: { query: 'SELECT 1 AS one', result: 'td://@/wire_db/result_{f}?mode=replace' },
    reads: { job_id: 'truthy' },
    settle: true,
  },
  {
    by: ['rb:list_jobs', 'py:list_jobs', 'cli:job:list'],
    method: 'GET',
    path: '/v3/job/list?from=0&to=9',
    encodings: RB_PY,
    reads: {
      jobs: 'truthy',
      'jobs[].job_id': 'string',
      'jobs[].type': 'string',
      'jobs[].database': 'string',
      'jobs[].status': 'string',
      'jobs[].query': 'present',
      'jobs[].start_at': 'string|null',
      'jobs[].end_at': 'string|null',
      'jobs[].cpu_time': 'present',
      'jobs[].result_size': 'present',
      'jobs[].priority': 'integer',
      'jobs[].retry_limit': 'integer',
      'jobs[].duration': 'present',
      'jobs[].num_records': 'present',
    },
  },
  {
    by: ['rb:show_job', 'py:show_job', 'cli:job:show', 'cli:query -w'],
    method: 'GET',
    path: '/v3/job/show/{job}',
    encodings: RB_PY,
    reads: {
      status: 'truthy',
      type: 'string',
      database: 'string',
      query: 'present',
      debug: 'object',
      'debug.cmdout': 'present',
      'debug.stderr': 'present',
      url: 'present',
      start_at: 'string|null',
      end_at: 'string|null',
      cpu_time: 'present',
      result_size: 'present',
      num_records: 'present',
      duration: 'present',
      hive_result_schema: 'json-text',
      priority: 'integer',
      retry_limit: 'integer',
    },
  },
  {
    by: ['rb:job_status', 'py:job_status', 'py:Cursor (DB-API)'],
    method: 'GET',
    path: '/v3/job/status/{job}',
    encodings: RB_PY,
    reads: { status: 'truthy' },
  },
  {
    by: ['rb:job_result', 'rb:job_result_each', 'py:job_result', 'cli:job:show', 'cli:query -w'],
    method: 'GET',
    path: '/v3/job/result/{job}?format=msgpack',
    encodings: RB_PY,
    reads: 'msgpack',
  },
  {
    by: ['py:job_result_format_each'],
    method: 'GET',
    path: '/v3/job/result/{job}?format=json&header=False',
    encodings: ['multipart'],
    reads: 'text',
  },
  {
    by: ['rb:job_result_each_with_compr_size', 'py:download_job_result'],
    method: 'GET',
    path: '/v3/job/result/{job}?format=msgpack.gz',
    encodings: RB_PY,
    reads: 'gzip',
  },
  {
    by: ['rb:kill', 'py:kill', 'cli:job:kill'],
    method: 'POST',
    path: '/v3/job/kill/{job}',
    encodings: RB_PY,
    reads: { former_status: 'present' },
  },
  ...LOAD_WIRE,
];
