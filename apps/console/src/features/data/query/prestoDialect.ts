import { SQLDialect } from '@codemirror/lang-sql';

/**
 * The SQL the query engine takes (Presto's, docs/query-dialect.md), for highlighting and completion. Standard
 * SQL's list offered words no query here can use (CLOB, CASCADED, …); this one holds the words of a query.
 */
const KEYWORDS = [
  'select distinct all from where group by having order asc desc nulls first last limit offset',
  'join inner left right full outer cross on using as and or not in is null like escape between exists',
  'case when then else end union intersect except with values cast try_cast interval at time zone',
  'over partition rows range unbounded preceding following current row filter lateral unnest ordinality',
  'true false',
].join(' ');

const TYPES =
  'bigint integer smallint tinyint double real decimal varchar char boolean date timestamp varbinary json array map row';

/** Functions beside Presto's aggregates and the engine's time, text, JSON and URL helpers. */
const BUILTINS = [
  'count sum avg min max approx_distinct approx_percentile arbitrary array_agg count_if bool_and bool_or',
  'coalesce nullif greatest least abs round floor ceil ceiling mod power sqrt ln log10 rand',
  'length lower upper trim ltrim rtrim substr replace concat split_part strpos reverse lpad rpad',
  'regexp_like regexp_extract regexp_replace json_extract json_extract_scalar element_at cardinality contains',
  'now date_trunc date_format date_parse format_datetime from_unixtime to_unixtime from_iso8601_timestamp',
  'to_iso8601 year month day hour minute second day_of_week url_extract_host url_extract_path',
  'url_extract_parameter td_time_range td_interval td_time_format td_time_parse td_time_add td_date_trunc',
  'td_scheduled_time row_number rank dense_rank lag lead first_value last_value',
].join(' ');

export const PrestoSQL = SQLDialect.define({ keywords: KEYWORDS, types: TYPES, builtin: BUILTINS });
