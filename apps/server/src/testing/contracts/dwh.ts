import type { Contract } from './shape';

/**
 * Facts of the public OpenAPI description of the data-warehouse sync API, dwh-integration.openapi.yml (the shared reference folder: shared/reference/).
 * Only the facts the contract tests check are kept: field names, types, required lists, closed objects,
 * enumerations and patterns, in the form of `./shape.ts`. Descriptions, examples and formats are left out.
 */
export const dwh: Contract = {
  schemas: {
    Advanced: {
      fields: {
        type: 'string',
      },
    },
    AdvancedConfigs: [
      {
        fields: {
          target_table: 'string',
          config: {
            type: 'object',
            oneOf: ['@snowflake.advanced', '@databricks.advanced'],
          },
        },
      },
    ],
    Basic: {
      fields: {
        type: 'string',
        td_authentication_id: 'string',
      },
      required: ['type', 'td_authentication_id'],
    },
    BasicConfigs: {
      type: 'object',
      oneOf: ['@snowflake.basic', '@databricks.basic'],
    },
    BulkloadSession: {
      fields: {
        name: 'string',
        bulkload_session_id: 'integer',
        target_table: 'string',
        configs_digest: 'string',
      },
    },
    DwhIntegration: {
      allOf: [
        '@Schedule',
        {
          fields: {
            id: 'integer',
            name: 'string',
            user_id: 'integer',
            account_id: 'integer',
            workflow_project_id: 'integer',
            workflow_project_name: 'string',
            dwh_config_id: 'integer',
            created_at: 'string',
            updated_at: 'string',
          },
        },
      ],
      closed: true,
    },
    Error: {
      fields: {
        code: 'integer',
        title: 'string',
        message: {
          anyOf: [
            'string',
            {
              type: 'object',
              open: true,
            },
          ],
        },
        detail: {
          type: 'object',
          open: true,
        },
      },
      closed: true,
    },
    ErrorResponse: {
      fields: {
        error: '@Error',
      },
    },
    FilterConfigs: [
      {
        fields: {
          type: 'string',
          from_column: 'object',
          to_column: 'object',
        },
      },
    ],
    GuessResult: {
      fields: {
        basic_configs: '@BasicConfigs',
        advanced_configs: '@AdvancedConfigs',
      },
      closed: true,
    },
    OutConfigs: {
      fields: {
        database: 'string',
        mode: 'string',
        time_column: 'string',
      },
    },
    Pagination: {
      fields: {
        page: 'integer',
        size: 'integer',
        total_pages: 'integer',
      },
    },
    Schedule: {
      fields: {
        schedule_type: {
          type: 'string',
          enum: ['none', 'daily', 'hourly', 'weekly', 'monthly', 'minutes_interval', 'cron'],
        },
        schedule_option: 'string',
        timezone: 'string',
      },
    },
    SessionAttempt: {
      fields: {
        attempt_id: 'integer',
        attempt_name: 'string',
        session_id: 'integer',
        session_time: 'string',
        status: 'string',
      },
    },
    databricks: {
      fields: {
        basic: {
          type: 'object',
          allOf: [
            '@Basic',
            {
              fields: {
                catalog: 'string',
                schema: 'string',
                incremental: 'boolean',
              },
            },
          ],
          required: ['catalog'],
        },
        advanced: {
          type: 'object',
          allOf: [
            '@Advanced',
            {
              fields: {
                use_custom_query: 'boolean',
                query: 'string',
                select: 'string',
                table: 'string',
                where: 'string',
                order_by: 'string',
                incremental: 'boolean',
                incremental_columns: ['string'],
                invalid_value_option: {
                  type: 'string',
                  enum: ['fail_job', 'insert_null', 'ignore_row'],
                },
                last_record: {
                  type: 'array',
                  enum: ['string', 'number', 'boolean', 'null'],
                },
              },
            },
          ],
        },
      },
    },
    snowflake: {
      fields: {
        basic: {
          type: 'object',
          allOf: [
            '@Basic',
            {
              fields: {
                role: 'string',
                warehouse: 'string',
                db: 'string',
                schema: 'string',
                incremental: 'boolean',
              },
            },
          ],
          required: ['warehouse', 'db', 'schema'],
        },
        advanced: {
          type: 'object',
          allOf: [
            '@Advanced',
            {
              fields: {
                source_type: {
                  type: 'string',
                  enum: ['table_view', 'query'],
                },
                query: 'string',
                select: 'string',
                table: 'string',
                where: 'string',
                order_by: 'string',
                incremental: 'boolean',
                incremental_columns: ['string'],
                invalid_value_option: {
                  type: 'string',
                  enum: ['fail_job', 'insert_null', 'ignore_row'],
                },
              },
            },
          ],
        },
      },
    },
  },
  responses: {
    'post /v1/guess': '@GuessResult',
    'get /v1/dwh/{dwh_id}/configs': {
      fields: {
        id: 'integer',
        config_digest: 'string',
        created_at: 'string',
        updated_at: 'string',
        basic_configs: '@BasicConfigs',
        advanced_configs: '@AdvancedConfigs',
        output_config: '@OutConfigs',
        filter_configs: '@FilterConfigs',
      },
      closed: true,
    },
    'get /v1/dwh/': {
      fields: {
        items: ['@DwhIntegration'],
        pagination: '@Pagination',
      },
    },
    'get /v1/dwh/{dwh_id}': '@DwhIntegration',
    'get /v1/dwh/{dwh_id}/bulkload_sessions': ['@BulkloadSession'],
    'get /v1/dwh/{dwh_id}/session_attempts': {
      fields: {
        items: ['@SessionAttempt'],
        pagination: '@Pagination',
      },
    },
  },
};
