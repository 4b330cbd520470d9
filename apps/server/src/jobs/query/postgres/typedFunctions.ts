/**
 * Functions and aggregates typed as Presto types them, in `svc_fn` (the translator calls them for PRESTO_TYPED's names). On
 * PostgreSQL a sum of bigints is a numeric and an average or a deviation of integers too, which the result
 * schema would report as double; Presto's sum of integers is a bigint (an overflow is an error, as on the
 * embedded engine) and the rest are doubles. Built from PostgreSQL's own transition functions, so they run in
 * parallel and as fast as the built-ins.
 */

const doubleAggregate = (name: string, final: string) => `
CREATE OR REPLACE AGGREGATE svc_fn.${name}(double precision) (
  SFUNC = float8_accum, STYPE = float8[], FINALFUNC = ${final}, COMBINEFUNC = float8_combine,
  INITCOND = '{0,0,0}', PARALLEL = SAFE
);`;

export const TYPED_FUNCTIONS = `
CREATE OR REPLACE AGGREGATE svc_fn.sum(smallint) (
  SFUNC = int2_sum, STYPE = bigint, COMBINEFUNC = int8pl, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE svc_fn.sum(integer) (
  SFUNC = int4_sum, STYPE = bigint, COMBINEFUNC = int8pl, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE svc_fn.sum(bigint) (
  SFUNC = int8pl, STYPE = bigint, COMBINEFUNC = int8pl, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE svc_fn.sum(double precision) (
  SFUNC = float8pl, STYPE = double precision, COMBINEFUNC = float8pl, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE svc_fn.sum(numeric) (
  SFUNC = numeric_add, STYPE = numeric, COMBINEFUNC = numeric_add, PARALLEL = SAFE
);
${doubleAggregate('avg', 'float8_avg')}
${doubleAggregate('stddev', 'float8_stddev_samp')}
${doubleAggregate('stddev_samp', 'float8_stddev_samp')}
${doubleAggregate('stddev_pop', 'float8_stddev_pop')}
${doubleAggregate('variance', 'float8_var_samp')}
${doubleAggregate('var_samp', 'float8_var_samp')}
${doubleAggregate('var_pop', 'float8_var_pop')}

-- array_agg(x) as the embedded engine gives it: a JSON array (compact text in results), NULL over no rows, with
-- DISTINCT, ORDER BY, FILTER and OVER as any aggregate; conditions are 1 and 0 in it, as everywhere in results. The
-- text overload is the one a bare literal ('a') resolves to. Not named array_agg: svc_fn is on the queries'
-- search_path, where it would shadow the built-in (which max_by and min_by use) for text and booleans.
CREATE OR REPLACE FUNCTION svc_fn.array_as_json(a anycompatiblearray) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT to_jsonb(a) $f$;
CREATE OR REPLACE FUNCTION svc_fn.array_as_json(a boolean[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT to_jsonb(a::integer[]) $f$;
CREATE OR REPLACE AGGREGATE svc_fn.array_agg_json(anycompatible) (
  SFUNC = array_append, STYPE = anycompatiblearray, FINALFUNC = svc_fn.array_as_json
);
CREATE OR REPLACE AGGREGATE svc_fn.array_agg_json(text) (
  SFUNC = array_append, STYPE = text[], FINALFUNC = svc_fn.array_as_json
);
CREATE OR REPLACE AGGREGATE svc_fn.array_agg_json(boolean) (
  SFUNC = array_append, STYPE = boolean[], FINALFUNC = svc_fn.array_as_json
);

-- sign() of its argument's type, as Presto's (PostgreSQL's reads an integer as numeric).
CREATE OR REPLACE FUNCTION svc_fn.sign(v integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT pg_catalog.sign(v)::integer $f$;
CREATE OR REPLACE FUNCTION svc_fn.sign(v bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT pg_catalog.sign(v)::bigint $f$;
CREATE OR REPLACE FUNCTION svc_fn.sign(v double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT pg_catalog.sign(v) $f$;
CREATE OR REPLACE FUNCTION svc_fn.sign(v numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT pg_catalog.sign(v) $f$;

-- mod() and % of doubles, which PostgreSQL lacks: the remainder with the dividend's sign, as Presto's.
CREATE OR REPLACE FUNCTION svc_fn.mod(a integer, b integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT mod(a, b) $f$;
CREATE OR REPLACE FUNCTION svc_fn.mod(a bigint, b bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT mod(a, b) $f$;
CREATE OR REPLACE FUNCTION svc_fn.mod(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT mod(a, b) $f$;
CREATE OR REPLACE FUNCTION svc_fn.mod(a double precision, b double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT CASE WHEN b = 0 THEN 'NaN'::double precision ELSE a - b * trunc(a / b) END $f$;
DO $d$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace
                  WHERE n.nspname = 'svc_fn' AND o.oprname = '%') THEN
    CREATE OPERATOR svc_fn.% (LEFTARG = double precision, RIGHTARG = double precision, FUNCTION = svc_fn.mod);
  END IF;
END $d$;

-- CAST(x AS varchar): a whole double keeps its ".0" (0.0, 36.0) and a condition is true or false, as on the embedded
-- engine and in Presto.
CREATE OR REPLACE FUNCTION svc_fn.to_text(v double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE WHEN v = trunc(v) AND abs(v) < 1e15 THEN trunc(v)::bigint::text || '.0' ELSE v::text END
$f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v numeric) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT CASE WHEN v THEN 'true' WHEN NOT v THEN 'false' END $f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v $f$;
CREATE OR REPLACE FUNCTION svc_fn.to_text(v anyelement) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$ SELECT v::text $f$;
`;
