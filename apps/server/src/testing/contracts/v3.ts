import type { Contract } from './shape';

/**
 * Facts of the public OpenAPI description of the Treasure Data v3 API, td-api-v3.openapi.yml (the shared reference folder: shared/reference/).
 * Only the facts the contract tests check are kept: field names, types, required lists, closed objects,
 * enumerations and patterns, in the form of `./shape.ts`. Descriptions, examples and formats are left out.
 */
export const v3: Contract = {
  schemas: {
    BulkLoadConfig: {
      open: true,
      fields: {
        in: {
          open: true,
          fields: {
            connection_prop: 'string',
            connection_secret: 'string',
            basic_prop: 'string',
            basic_secret: 'string',
            advanced_prop: 'string',
            advanced_secret: 'string',
            type: 'string',
            td_authentication_id: 'integer',
          },
        },
        filters: ['object'],
        exec: {
          open: true,
          fields: {
            type: 'string',
            basic_prop: 'string',
            secret_prop: 'string',
          },
        },
        out: {
          open: true,
          fields: {
            type: 'string',
            mode: 'string',
            plazma_dataset: 'string',
            time_column: 'string',
          },
        },
      },
    },
    BulkLoadSession: {
      closed: true,
      fields: {
        id: '@BulkLoadSessionId',
        name: 'string',
        cron: 'string|null',
        timezone: '@Timezone',
        delay: 'integer',
        start_at: {
          anyOf: ['string|null', '@DateTimeISO8601'],
        },
        database: '@Database.name',
        table: '@Table.name',
        config: '@BulkLoadConfig',
        config_diff: {
          type: 'object',
          open: true,
        },
      },
    },
    BulkLoadSessionId: 'integer',
    Database: {
      closed: true,
      required: ['count', 'created_at', 'delete_protected', 'name', 'organization', 'permission', 'updated_at'],
      fields: {
        count: 'integer',
        created_at: '@DateTimeAsString',
        delete_protected: 'boolean',
        datatank: 'boolean',
        id: '@DatabaseIdAsString',
        name: 'string',
        organization: 'string|null',
        permission: 'string|null',
        database_permissions: {
          open: true,
          fields: {
            edit: 'boolean',
            delete: 'boolean',
            query: 'boolean',
            import: 'boolean',
            download: 'boolean',
          },
        },
        updated_at: '@DateTimeAsString',
      },
    },
    DatabaseIdAsString: 'string',
    DatabaseWithoutIdAndDatatank: {
      closed: true,
      required: ['count', 'created_at', 'delete_protected', 'name', 'organization', 'permission', 'updated_at'],
      fields: {
        count: 'integer',
        created_at: '@DateTimeAsString',
        delete_protected: 'boolean',
        name: 'string',
        organization: 'string|null',
        permission: 'string|null',
        database_permissions: {
          open: true,
          fields: {
            edit: 'boolean',
            delete: 'boolean',
            query: 'boolean',
            import: 'boolean',
            download: 'boolean',
          },
        },
        updated_at: '@DateTimeAsString',
      },
    },
    DateTimeAsString: {
      type: 'string',
      pattern: '\\d{4}-\\d{2}-\\d{2}\\s\\d{2}:\\d{2}:\\d{2}\\s(([+-]\\d{2}\\d{2})|UTC)',
    },
    DateTimeISO8601: {
      type: 'string',
      pattern: '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(([+-]\\d{2}:\\d{2})|Z)',
    },
    EmptyObject: {
      closed: true,
    },
    EmptyString: {
      type: 'string',
      pattern: '^$',
    },
    ErrorResponse: {
      closed: true,
      required: ['error', 'message', 'text', 'severity', 'status_code'],
      fields: {
        error: 'string',
        message: 'string',
        severity: 'string',
        text: 'string',
        status_code: 'integer',
      },
    },
    Job: {
      required: [
        'cpu_time',
        'created_at',
        'database',
        'duration',
        'end_at',
        'hive_result_schema',
        'job_id',
        'linked_result_export_job_id',
        'num_records',
        'organization',
        'priority',
        'query',
        'result_export_target_job_id',
        'result_size',
        'retry_limit',
        'start_at',
        'status',
        'type',
        'updated_at',
        'url',
        'user_name',
      ],
      fields: {
        cpu_time: 'integer|null',
        created_at: '@DateTimeAsString',
        database: 'string|null',
        duration: 'integer|null',
        end_at: {
          oneOf: ['@DateTimeAsString', '@EmptyString'],
        },
        hive_result_schema: 'string|null',
        job_id: '@JobIdAsString',
        linked_result_export_job_id: {
          anyOf: ['@JobId', 'integer|null'],
        },
        num_records: 'integer|null',
        organization: 'string|null',
        priority: {
          type: 'integer',
          min: -2,
          max: 2,
        },
        query: {
          anyOf: ['string|null', '@QueryAsString', '@BulkLoadConfig'],
        },
        result: 'string',
        result_export_target_job_id: {
          anyOf: ['@JobId', 'integer|null'],
        },
        result_size: 'integer|null',
        retry_limit: {
          type: 'integer',
          min: 0,
          max: 32,
        },
        start_at: {
          oneOf: ['@DateTimeAsString', '@EmptyString'],
        },
        status: {
          type: 'string',
          enum: ['queued', 'running', 'killed', 'success', 'error'],
        },
        type: 'string',
        updated_at: '@DateTimeAsString',
        url: 'string',
        user_name: '@User.name',
      },
    },
    JobId: 'integer',
    JobIdAsString: 'string',
    JobStatus: {
      closed: true,
      required: [
        'job_id',
        'cpu_time',
        'created_at',
        'duration',
        'end_at',
        'num_records',
        'result_size',
        'start_at',
        'status',
        'updated_at',
      ],
      fields: {
        job_id: '@JobIdAsString',
        cpu_time: '@Job.cpu_time',
        created_at: '@DateTimeAsString',
        end_at: '@Job.end_at',
        duration: '@Job.duration',
        num_records: '@Job.num_records',
        result_size: '@Job.result_size',
        start_at: '@Job.start_at',
        status: '@Job.status',
        updated_at: '@DateTimeAsString',
      },
    },
    QueryAsString: 'string',
    SSOFullQualifiedIdentifier: {
      type: 'string',
      minLength: 1,
    },
    SSOIdentifier: {
      type: 'string',
      minLength: 1,
    },
    SSOSettingName: {
      type: 'string',
      minLength: 1,
    },
    Schedule: {
      required: ['created_at', 'cron', 'database', 'delay', 'name', 'query', 'timezone', 'type', 'user_name'],
      fields: {
        created_at: '@DateTimeISO8601',
        cron: 'string|null',
        database: {
          anyOf: ['@Database.name', 'string|null'],
        },
        delay: { type: 'integer', nullable: true, min: 0 },
        engine_version: 'string',
        executing_user_id: 'integer',
        name: 'string',
        priority: { type: 'integer', min: -2, max: 2 },
        query: 'string',
        retry_limit: { type: 'integer', min: 0, max: 32 },
        timezone: '@Timezone',
        type: 'string',
        user_name: '@User.name',
      },
    },
    ScheduleReference: {
      required: ['created_at', 'cron', 'database', 'delay', 'name', 'query', 'timezone', 'type', 'user_name'],
      fields: {
        created_at: '@DateTimeISO8601',
        cron: '@Schedule.cron',
        database: '@Schedule.database',
        delay: '@Schedule.delay',
        name: '@Schedule.name',
        query: '@Schedule.query',
        timezone: '@Timezone',
        type: '@Schedule.type',
        user_name: '@User.name',
      },
    },
    ScheduledJob: {
      closed: true,
      required: ['job_id', 'type', 'scheduled_at'],
      fields: {
        job_id: '@JobId',
        type: '@Job.type',
        scheduled_at: {
          oneOf: ['@DateTimeAsString', '@EmptyString'],
        },
      },
    },
    TableReference: {
      closed: true,
      required: ['database', 'table', 'type'],
      fields: {
        database: '@Database.name',
        table: '@Table.name',
        type: '@Table.type',
      },
    },
    Table: {
      closed: true,
      required: [
        'id',
        'count',
        'counter_updated_at',
        'created_at',
        'delete_protected',
        'estimated_storage_size',
        'expire_days',
        'include_v',
        'last_log_timestamp',
        'name',
        'schema',
        'type',
        'updated_at',
      ],
      fields: {
        id: '@TableId',
        count: 'integer',
        counter_updated_at: {
          anyOf: ['string|null', '@DateTimeISO8601'],
        },
        created_at: '@DateTimeAsString',
        delete_protected: 'boolean',
        estimated_storage_size: 'integer',
        expire_days: 'integer|null',
        include_v: 'boolean',
        last_log_timestamp: 'integer|null',
        name: 'string',
        description: 'string|null',
        schema: 'string',
        type: {
          type: 'string',
          enum: ['log'],
        },
        updated_at: '@DateTimeAsString',
      },
    },
    TableId: 'integer',
    Timezone: 'string',
    User: {
      closed: true,
      required: [
        'id',
        'account_owner',
        'administrator',
        'created_at',
        'email',
        'first_name',
        'gravatar_url',
        'last_name',
        'phone',
        'updated_at',
      ],
      fields: {
        id: '@UserId',
        account_owner: 'boolean',
        administrator: 'boolean',
        created_at: '@DateTimeISO8601',
        email: 'string',
        first_name: 'string|null',
        gravatar_url: 'string',
        identifier: '@SSOIdentifier',
        full_qualified_identifier: '@SSOFullQualifiedIdentifier',
        setting_name: '@SSOSettingName',
        last_name: 'string|null',
        name: 'string',
        organization: 'string|null',
        phone: 'string|null',
        roles: ['string'],
        updated_at: '@DateTimeISO8601',
        delegated_admin: 'boolean',
        delegated_policy_groups: ['string'],
        policy_group_tags: ['string'],
      },
    },
    UserId: 'integer',
  },
  responses: {
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
  },
};
