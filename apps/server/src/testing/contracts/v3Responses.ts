import type { Shape } from './shape';

/** The responses of td-api-v3.openapi.yml, in the form of `./shape.ts` (v3.ts says which facts are kept). */
export const v3Responses: Record<string, Shape> = {
  'get /schedule/list': {
    closed: true,
    required: ['schedules'],
    fields: {
      schedules: ['@Schedule'],
    },
  },
  'post /schedule/create/{schedule_name}': '@ScheduleReference',
  'post /schedule/update/{schedule_name}': '@ScheduleReference',
  'post /schedule/delete/{schedule_name}': '@ScheduleReference',
  'post /schedule/run/{schedule_name}/{schedule_time}': {
    closed: true,
    required: ['jobs'],
    fields: {
      jobs: ['@ScheduledJob'],
    },
  },
  'get /schedule/history/{schedule_name}': {
    closed: true,
    required: ['count', 'from', 'to', 'history'],
    fields: {
      count: 'integer',
      from: 'integer',
      to: 'integer',
      history: [
        {
          allOf: [
            '@Job',
            {
              required: ['scheduled_at'],
              fields: {
                scheduled_at: {
                  oneOf: ['@DateTimeAsString', '@EmptyString'],
                },
              },
            },
          ],
        },
      ],
    },
  },
  'post /table/swap/{database_name}/{table_name_1}/{table_name_2}': {
    closed: true,
    required: ['database', 'table1', 'table2'],
    fields: {
      database: '@Database.name',
      table1: '@Table.name',
      table2: '@Table.name',
    },
  },
  'post /table/update/{database_name}/{table_name}': '@TableReference',
  'post /table/change_database/{database_name}/{table_name}': '@TableReference',
  'post /job/issue/{job_type}/{database_name}': {
    closed: true,
    required: ['job', 'job_id', 'database'],
    fields: {
      job: '@JobIdAsString',
      job_id: '@JobIdAsString',
      database: '@Database.name',
    },
  },
  'get /job/status/{job_id}': '@JobStatus',
  'get /job/list': {
    closed: true,
    required: ['jobs', 'count', 'from', 'to'],
    fields: {
      jobs: ['@Job'],
      count: 'integer',
      from: 'integer|null',
      to: 'integer|null',
    },
  },
  'post /job/kill/{job_id}': {
    oneOf: [
      '@EmptyObject',
      {
        closed: true,
        fields: {
          job_id: '@JobIdAsString',
          former_status: '@Job.status',
        },
      },
    ],
  },
  'get /result/list': {
    closed: true,
    required: ['results'],
    fields: {
      results: [
        {
          closed: true,
          required: ['name', 'url', 'organization'],
          fields: {
            name: 'string',
            url: 'string',
            organization: 'string|null',
          },
        },
      ],
    },
  },
  'get /database/list': {
    closed: true,
    required: ['databases'],
    fields: {
      databases: ['@DatabaseWithoutIdAndDatatank'],
    },
  },
  'post /database/create/{database_name}': {
    closed: true,
    required: ['database'],
    fields: {
      database: '@Database.name',
    },
  },
  'get /table/list/{database_name}': {
    closed: true,
    required: ['database', 'tables'],
    fields: {
      database: '@Database.name',
      tables: ['@Table'],
    },
  },
};
