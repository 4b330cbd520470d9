import { INTEGER_TEXT, NUMBER_TEXT } from '../casts';
import { quote as lit } from '../rewriting';

/** The cast, JSON and text functions of `svc_fn` (functions.ts installs them). */

const CASTS = `
CREATE OR REPLACE FUNCTION svc_fn.cast_failed(v text, type text, try boolean) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF NOT try THEN RAISE EXCEPTION 'Cannot cast % to %.', left(to_json(v)::text, 80), type; END IF;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.cast_bigint(v text, try boolean) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF v ~ ${lit(INTEGER_TEXT.source)} THEN RETURN btrim(v)::numeric::bigint; END IF;
  IF btrim(v) IN ('true', 'false') THEN RETURN CASE WHEN btrim(v) = 'true' THEN 1 ELSE 0 END; END IF;
  PERFORM svc_fn.cast_failed(v, 'bigint', try);
  RETURN NULL;
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_bigint(v numeric, try boolean) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF v = 'NaN'::numeric THEN PERFORM svc_fn.cast_failed(v::text, 'bigint', try); RETURN NULL; END IF;
  RETURN round(v)::bigint;
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_bigint(v double precision, try boolean) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF v = 'NaN' OR v IN ('Infinity', '-Infinity') THEN
    PERFORM svc_fn.cast_failed(v::text, 'bigint', try); RETURN NULL;
  END IF;
  RETURN round(v::numeric)::bigint;
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_bigint(v boolean, try boolean) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT CASE WHEN v THEN 1 WHEN NOT v THEN 0 END $f$;

CREATE OR REPLACE FUNCTION svc_fn.cast_double(v text, try boolean) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF v ~ ${lit(NUMBER_TEXT.source)} THEN RETURN btrim(v)::double precision; END IF;
  PERFORM svc_fn.cast_failed(v, 'double', try);
  RETURN NULL;
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_double(v double precision, try boolean) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_double(v numeric, try boolean) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::double precision $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_double(v boolean, try boolean) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT CASE WHEN v THEN 1 WHEN NOT v THEN 0 END::double precision $f$;

CREATE OR REPLACE FUNCTION svc_fn.cast_boolean(v text, try boolean) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF lower(btrim(v)) IN ('true', '1') THEN RETURN true; END IF;
  IF lower(btrim(v)) IN ('false', '0') THEN RETURN false; END IF;
  PERFORM svc_fn.cast_failed(v, 'boolean', try);
  RETURN NULL;
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_boolean(v double precision, try boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v <> 0 $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_boolean(v boolean, try boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v $f$;

CREATE OR REPLACE FUNCTION svc_fn.cast_timestamp(v text, try boolean) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE ts timestamptz := svc_fn.ts_parse(v);
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF ts IS NULL THEN PERFORM svc_fn.cast_failed(v, 'timestamp', try); RETURN NULL; END IF;
  RETURN svc_fn.ts_text(ts, NULL);
END $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_date(v text, try boolean) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE ts timestamptz := svc_fn.ts_parse(v);
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  IF ts IS NULL THEN PERFORM svc_fn.cast_failed(v, 'date', try); RETURN NULL; END IF;
  RETURN left(svc_fn.ts_text(ts, NULL), 10);
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.cast_json(v text, try boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT to_json(v)::text $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_json(v double precision, try boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
CREATE OR REPLACE FUNCTION svc_fn.cast_json(v numeric, try boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
-- A condition as JSON is true or false, as in Presto (DuckDB gives 1 or 0: docs/query-dialect.md).
CREATE OR REPLACE FUNCTION svc_fn.cast_json(v boolean, try boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
`;

const JSON_AND_TEXT = `
CREATE OR REPLACE FUNCTION svc_fn.try_json(v text) RETURNS json LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $f$
BEGIN
  RETURN v::json;
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END $f$;

-- JSON text is read as json, not jsonb, so a nested value keeps its text as stored (compact, like SQLite's).
-- A JSON value as SQLite holds it: scalars as text (booleans 1 or 0), objects and arrays as JSON text.
CREATE OR REPLACE FUNCTION svc_fn.json_value(e json) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE json_typeof(e)
    WHEN 'null' THEN NULL WHEN 'string' THEN e #>> '{}' WHEN 'number' THEN e #>> '{}'
    WHEN 'boolean' THEN CASE WHEN e::text = 'true' THEN '1' ELSE '0' END
    ELSE e::text END
$f$;

CREATE OR REPLACE FUNCTION svc_fn.json_extract_scalar(v text, steps text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS $f$
  SELECT CASE WHEN json_typeof(j #> steps) IN ('string', 'number', 'boolean') THEN j #>> steps END
  FROM (SELECT svc_fn.try_json(v) AS j) doc
$f$;

CREATE OR REPLACE FUNCTION svc_fn.element_at(v text, key text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $f$
DECLARE
  j json := svc_fn.try_json(v);
  i int;
  len int;
BEGIN
  IF j IS NULL OR key IS NULL THEN RETURN NULL; END IF;
  IF json_typeof(j) = 'array' THEN
    IF key !~ '^\\s*-?\\d{1,9}(\\.0*)?\\s*$' OR key::numeric = 0 THEN
      RAISE EXCEPTION 'element_at: array indexes start at 1 (or -1 from the end).';
    END IF;
    i := key::numeric::int; len := json_array_length(j);
    IF i > len OR -i > len THEN RETURN NULL; END IF;
    RETURN svc_fn.json_value(j -> CASE WHEN i > 0 THEN i - 1 ELSE len + i END);
  END IF;
  IF json_typeof(j) = 'object' THEN RETURN svc_fn.json_value(j -> key); END IF;
  RETURN NULL;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.cardinality(v text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS $f$
  SELECT CASE json_typeof(j) WHEN 'array' THEN json_array_length(j)
    WHEN 'object' THEN (SELECT count(*) FROM json_object_keys(j)) END
  FROM (SELECT svc_fn.try_json(v) AS j) doc
$f$;

CREATE OR REPLACE FUNCTION svc_fn.contains(v text, x text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS $f$
  SELECT CASE WHEN json_typeof(j) = 'array' AND x IS NOT NULL THEN
    EXISTS (SELECT 1 FROM json_array_elements(j) e WHERE json_typeof(e) <> 'null' AND svc_fn.json_value(e) = x)
  END
  FROM (SELECT svc_fn.try_json(v) AS j) doc
$f$;

-- UNNEST (translate.ts): one row per element of a JSON array, or entry of a JSON map, as SQLite's
-- presto_unnest gives them (an array's key is its 1-based position). NULL gives no rows.
CREATE OR REPLACE FUNCTION svc_fn.unnest_entries(v text) RETURNS TABLE (unnest_key text, unnest_value text)
LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $f$
DECLARE
  j json;
BEGIN
  IF v IS NULL THEN RETURN; END IF;
  j := svc_fn.try_json(v);
  IF json_typeof(j) = 'array' THEN
    RETURN QUERY SELECT e.n::text, svc_fn.json_value(e.value) FROM json_array_elements(j) WITH ORDINALITY AS e(value, n);
  ELSIF json_typeof(j) = 'object' THEN
    RETURN QUERY SELECT e.key, svc_fn.json_value(e.value) FROM json_each(j) AS e;
  ELSE
    RAISE EXCEPTION 'UNNEST: the value is not an array or a map.';
  END IF;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.unnest_values(v text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS $f$ SELECT unnest_value FROM svc_fn.unnest_entries(v) $f$;

CREATE OR REPLACE FUNCTION svc_fn.regexp_extract(s text, p text, g int) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE m text[];
BEGIN
  IF s IS NULL OR p IS NULL THEN RETURN NULL; END IF;
  m := regexp_match(s, '(' || p || ')');
  IF m IS NULL THEN RETURN NULL; END IF;
  IF g IS NULL OR g < 0 OR g >= array_length(m, 1) THEN
    RAISE EXCEPTION 'regexp_extract: the pattern has no group %.', g;
  END IF;
  RETURN m[g + 1];
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.split_part(s text, delimiter text, n bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
BEGIN
  IF s IS NULL OR delimiter IS NULL OR n IS NULL THEN RETURN NULL; END IF;
  IF n < 1 THEN RAISE EXCEPTION 'split_part: the index must be a whole number from 1.'; END IF;
  IF delimiter = '' THEN RETURN CASE WHEN n = 1 THEN s END; END IF;
  RETURN (string_to_array(s, delimiter))[n];
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.url_decode(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $f$
DECLARE
  out bytea := '';
  i int := 1;
BEGIN
  t := replace(t, '+', ' ');
  WHILE i <= length(t) LOOP
    IF substr(t, i, 1) = '%' AND substr(t, i + 1, 2) ~ '^[0-9A-Fa-f]{2}$' THEN
      out := out || decode(substr(t, i + 1, 2), 'hex'); i := i + 3;
    ELSE
      out := out || convert_to(substr(t, i, 1), 'UTF8'); i := i + 1;
    END IF;
  END LOOP;
  RETURN convert_from(out, 'UTF8');
EXCEPTION WHEN OTHERS THEN
  RETURN t;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.url_extract_host(u text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT lower((regexp_match(u, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\\[[^]]*\\]|[^:/?#]+)'))[1])
$f$;

CREATE OR REPLACE FUNCTION svc_fn.url_extract_path(u text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT coalesce(nullif(m[1], ''), '/') FROM (SELECT regexp_match(u, '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+([^?#]*)') AS m) x
  WHERE m IS NOT NULL
$f$;

CREATE OR REPLACE FUNCTION svc_fn.url_extract_parameter(u text, name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $f$
DECLARE
  pair text;
  eq int;
BEGIN
  IF u IS NULL OR name IS NULL OR svc_fn.url_extract_host(u) IS NULL THEN RETURN NULL; END IF;
  FOREACH pair IN ARRAY coalesce(string_to_array((regexp_match(u, '\\?([^#]*)'))[1], '&'), '{}') LOOP
    eq := strpos(pair, '=');
    IF svc_fn.url_decode(CASE WHEN eq = 0 THEN pair ELSE left(pair, eq - 1) END) = name THEN
      RETURN CASE WHEN eq = 0 THEN '' ELSE svc_fn.url_decode(substr(pair, eq + 1)) END;
    END IF;
  END LOOP;
  RETURN NULL;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.first_non_null(state anyelement, v anyelement) RETURNS anyelement
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT coalesce(state, v) $f$;
CREATE OR REPLACE AGGREGATE svc_fn.arbitrary(anyelement) (SFUNC = svc_fn.first_non_null, STYPE = anyelement);
`;

export const TEXT_FUNCTIONS = CASTS + JSON_AND_TEXT;
