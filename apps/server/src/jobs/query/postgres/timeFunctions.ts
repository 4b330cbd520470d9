import { quote as lit } from '../rewriting';
import { TIMESTAMP } from '../timeFormats';
import { ABBREVIATIONS, FIXED } from '../timeZones';

/**
 * The time functions of `svc_fn` (functions.ts installs them): zones, timestamps as text, and the
 * TD_TIME_FORMAT / date_format patterns.
 */

const abbreviationCases = Object.entries(ABBREVIATIONS)
  .map(([abbreviation, iana]) => `WHEN ${lit(abbreviation)} THEN ${lit(iana)}`)
  .join(' ');
const abbreviationList = Object.keys(ABBREVIATIONS).map(lit).join(', ');

const ZONES = `
-- Zone names PostgreSQL knows, lower-cased, so a zone is checked by a lookup instead of a caught error.
CREATE TABLE IF NOT EXISTS svc_fn.zone_names (name text PRIMARY KEY);
INSERT INTO svc_fn.zone_names SELECT DISTINCT lower(name) FROM pg_timezone_names ON CONFLICT DO NOTHING;

CREATE OR REPLACE FUNCTION svc_fn.zone(name text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE
  key text := coalesce(nullif(btrim(name), ''), 'UTC');
  m text[] := regexp_match(key, ${lit(FIXED.source)}, 'i');
BEGIN
  IF m IS NOT NULL THEN
    -- POSIX zone specifications count hours west of UTC: +09:00 is UTC-09:00.
    RETURN 'UTC' || CASE WHEN m[1] = '-' THEN '+' ELSE '-' END || m[2] || ':' || coalesce(m[3], '00');
  END IF;
  RETURN CASE upper(key) ${abbreviationCases} ELSE key END;
END $f$;

-- Whether svc_fn.zone's result is a zone PostgreSQL can use.
CREATE OR REPLACE FUNCTION svc_fn.known_zone(zone text) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $f$
  SELECT zone ~ '^UTC[+-]\\d{1,2}:\\d{2}$' OR EXISTS (SELECT 1 FROM svc_fn.zone_names WHERE name = lower(zone))
$f$;

-- The name a zone is reported by (zoneOf(name).name): abbreviations upper-cased, UTC for UTC, GMT and Z.
CREATE OR REPLACE FUNCTION svc_fn.zone_label(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE
    WHEN name IS NULL OR btrim(name) = '' OR upper(btrim(name)) IN ('UTC', 'GMT', 'Z') THEN 'UTC'
    WHEN upper(btrim(name)) IN (${abbreviationList}) THEN upper(btrim(name))
    ELSE btrim(name) END
$f$;

CREATE OR REPLACE FUNCTION svc_fn.pad(v bigint, width int) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE WHEN length(v::text) >= width THEN v::text ELSE lpad(v::text, width, '0') END
$f$;

CREATE OR REPLACE FUNCTION svc_fn.offset_minutes(ts timestamptz, zone text) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT round((extract(epoch FROM ts AT TIME ZONE zone) - extract(epoch FROM ts)) / 60)::int
$f$;

CREATE OR REPLACE FUNCTION svc_fn.offset_text(minutes int, colon boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE WHEN minutes < 0 THEN '-' ELSE '+' END || svc_fn.pad(abs(minutes) / 60, 2)
    || CASE WHEN colon THEN ':' ELSE '' END || svc_fn.pad(abs(minutes) % 60, 2)
$f$;

-- The zone's short name at an instant, as Intl's en-US data gives it (letters for North American zones), else
-- the abbreviation the caller wrote, else GMT+hh:mm.
CREATE OR REPLACE FUNCTION svc_fn.zone_abbreviation(ts timestamptz, label text) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL UNSAFE AS $f$
DECLARE
  zone text := svc_fn.zone(label);
  previous text := current_setting('TimeZone');
  short text;
BEGIN
  IF zone = 'UTC' THEN RETURN 'UTC'; END IF;
  IF zone LIKE 'America/%' OR zone LIKE 'US/%' OR zone = 'Pacific/Honolulu' THEN
    PERFORM set_config('TimeZone', zone, true);
    short := to_char(ts, 'TZ');
    PERFORM set_config('TimeZone', previous, true);
    IF short ~ '^[A-Z]{2,5}$' THEN RETURN short; END IF;
  END IF;
  -- Intl names any region's zone "GMT" while it is at UTC (London in winter), a fixed offset never.
  IF zone !~ '^UTC[+-]' AND svc_fn.offset_minutes(ts, zone) = 0 THEN RETURN 'GMT'; END IF;
  IF label ~ '^[A-Z]{2,5}$' THEN RETURN label; END IF;
  RETURN 'GMT' || svc_fn.offset_text(svc_fn.offset_minutes(ts, zone), true);
END $f$;
`;

const TIMESTAMPS = `
-- Parses time text as parseTime does: Unix seconds, or a date or date-time with an optional zone (else 'zone').
CREATE OR REPLACE FUNCTION svc_fn.ts_parse(v text, zone text DEFAULT 'UTC') RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE
  m text[];
  mo int;
  d int;
  h int;
  mi int;
  s int;
  wall timestamp;
  z text;
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  -- The wire text this service writes (ts_text), read without the capturing expression, which is slow.
  IF v ~ '^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}( [A-Za-z][A-Za-z0-9_/+-]*)?$' THEN
    wall := left(v, 23)::timestamp;
    z := svc_fn.zone(CASE WHEN length(v) = 23 THEN zone ELSE substr(v, 25) END);
    RETURN CASE WHEN svc_fn.known_zone(z) THEN wall AT TIME ZONE z END;
  END IF;
  IF v ~ '^\\s*-?\\d{1,12}\\s*$' THEN RETURN to_timestamp(btrim(v)::double precision); END IF;
  m := regexp_match(v, ${lit(TIMESTAMP.source)});
  IF m IS NULL THEN RETURN NULL; END IF;
  mo := m[2]::int; d := m[3]::int; h := coalesce(m[4], '0')::int; mi := coalesce(m[5], '0')::int;
  s := coalesce(m[6], '0')::int;
  IF mo < 1 OR mo > 12 OR d < 1 OR d > 31 OR h > 24 OR mi > 59 OR s > 60 THEN RETURN NULL; END IF;
  wall := make_timestamp(m[1]::int, mo, 1, 0, 0, 0)
    + make_interval(days => d - 1, hours => h, mins => mi,
                    secs => s + coalesce(floor(('0.' || m[7])::numeric * 1000) / 1000, 0));
  z := svc_fn.zone(coalesce(m[8], zone));
  RETURN CASE WHEN svc_fn.known_zone(z) THEN wall AT TIME ZONE z END;
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.ts_must(v text, fn text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE r timestamptz;
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  r := svc_fn.ts_parse(v);
  IF r IS NULL THEN RAISE EXCEPTION '%: % is not a timestamp.', fn, to_json(v)::text; END IF;
  RETURN r;
END $f$;

-- The zone written after a timestamp (zoneOfTimestamp): a name, not an offset; NULL for UTC or none.
CREATE OR REPLACE FUNCTION svc_fn.ts_label(v text) RETURNS text LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE
  m text[];
  label text;
BEGIN
  IF v IS NULL OR v ~ '^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}$' THEN RETURN NULL; END IF;
  m := regexp_match(v, ${lit(TIMESTAMP.source)});
  IF m IS NULL OR m[8] IS NULL OR m[8] ~ '^[+-]' OR m[8] = 'Z' THEN RETURN NULL; END IF;
  label := svc_fn.zone_label(m[8]);
  IF label = 'UTC' OR NOT svc_fn.known_zone(svc_fn.zone(label)) THEN RETURN NULL; END IF;
  RETURN label;
END $f$;

-- The wire text of a timestamp (timestampText): UTC without a zone, else the wall time and the zone's name.
CREATE OR REPLACE FUNCTION svc_fn.ts_text(ts timestamptz, label text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT to_char(ts AT TIME ZONE svc_fn.zone(label), 'FMYYYY-MM-DD HH24:MI:SS.MS')
    || CASE WHEN label IS NULL OR label = 'UTC' THEN '' ELSE ' ' || label END
$f$;

-- The instant of Unix seconds, to the millisecond as from_unixtime keeps it.
CREATE OR REPLACE FUNCTION svc_fn.instant_of(t double precision) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT to_timestamp(round(t::numeric * 1000) / 1000)
$f$;

CREATE OR REPLACE FUNCTION svc_fn.bound_seconds(v text, label text, fn text) RETURNS double precision
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $f$
DECLARE r timestamptz;
BEGIN
  IF v IS NULL THEN RETURN NULL; END IF;
  -- ts_parse reads the zone's label itself (svc_fn.zone twice would turn an offset's sign twice).
  r := svc_fn.ts_parse(v, label);
  IF r IS NULL THEN RAISE EXCEPTION '%: % is not a date or time.', fn, to_json(v)::text; END IF;
  RETURN extract(epoch FROM r);
END $f$;

CREATE OR REPLACE FUNCTION svc_fn.td_time_parse(v text, label text) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE AS $f$
  SELECT floor(extract(epoch FROM svc_fn.ts_parse(v, label)))::bigint
$f$;

-- TD_TIME_ADD: s, m and h move the instant; d, w, M, q and y move the zone's wall clock.
CREATE OR REPLACE FUNCTION svc_fn.add_units(t double precision, n int, unit text, label text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE
    WHEN unit IN ('s', 'm', 'h') THEN floor(t + n * CASE unit WHEN 's' THEN 1 WHEN 'm' THEN 60 ELSE 3600 END)::bigint
    ELSE floor(extract(epoch FROM ((to_timestamp(t) AT TIME ZONE svc_fn.zone(label)) + make_interval(
      days => CASE unit WHEN 'd' THEN n WHEN 'w' THEN 7 * n ELSE 0 END,
      months => CASE unit WHEN 'M' THEN n WHEN 'q' THEN 3 * n WHEN 'y' THEN 12 * n ELSE 0 END))
      AT TIME ZONE svc_fn.zone(label)))::bigint
  END
$f$;

CREATE OR REPLACE FUNCTION svc_fn.trunc_seconds(t double precision, unit text, label text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT floor(extract(epoch FROM date_trunc(unit, to_timestamp(t) AT TIME ZONE svc_fn.zone(label))
    AT TIME ZONE svc_fn.zone(label)))::bigint
$f$;

CREATE OR REPLACE FUNCTION svc_fn.trunc_text(unit text, ts timestamptz, label text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT svc_fn.ts_text(date_trunc(unit, ts AT TIME ZONE svc_fn.zone(label)) AT TIME ZONE svc_fn.zone(label), label)
$f$;

CREATE OR REPLACE FUNCTION svc_fn.field_of(ts timestamptz, label text, field text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
  SELECT CASE field
    WHEN 'second' THEN floor(extract(second FROM ts AT TIME ZONE svc_fn.zone(label)))
    WHEN 'day_of_week' THEN extract(isodow FROM ts AT TIME ZONE svc_fn.zone(label))
    ELSE date_part(field, ts AT TIME ZONE svc_fn.zone(label)) END::bigint
$f$;
`;

const FORMATS = `
-- A Java date pattern, split by javaPatternParts into 'T<text>' and 'L<letter><count>' parts (formatJava).
CREATE OR REPLACE FUNCTION svc_fn.format_java(ts timestamptz, label text, parts text[]) RETURNS text
LANGUAGE plpgsql STABLE PARALLEL UNSAFE AS $f$
DECLARE
  w timestamp;
  off int;
  y int; mo int; d int; h int; mi int; s int; ms int; doy int; dow int;
  p text; c text; n int;
  out text := '';
BEGIN
  IF ts IS NULL OR parts IS NULL THEN RETURN NULL; END IF;
  w := ts AT TIME ZONE svc_fn.zone(label);
  off := svc_fn.offset_minutes(ts, svc_fn.zone(label));
  y := extract(year FROM w); mo := extract(month FROM w); d := extract(day FROM w); h := extract(hour FROM w);
  mi := extract(minute FROM w); s := floor(extract(second FROM w)); ms := floor(extract(milliseconds FROM w))::int % 1000;
  doy := extract(doy FROM w); dow := extract(dow FROM w);
  FOREACH p IN ARRAY parts LOOP
    IF left(p, 1) = 'T' THEN out := out || substr(p, 2); CONTINUE; END IF;
    c := substr(p, 2, 1); n := substr(p, 3)::int;
    out := out || CASE
      WHEN c = 'u' AND n = 1 THEN CASE WHEN dow = 0 THEN '7' ELSE dow::text END
      WHEN c IN ('y', 'Y', 'u') THEN CASE WHEN n = 2 THEN svc_fn.pad(y % 100, 2) ELSE svc_fn.pad(y, n) END
      WHEN c IN ('M', 'L') THEN CASE WHEN n >= 4 THEN to_char(w, 'FMMonth') WHEN n = 3 THEN to_char(w, 'Mon')
                                     ELSE svc_fn.pad(mo, n) END
      WHEN c = 'd' THEN svc_fn.pad(d, n)
      WHEN c = 'D' THEN svc_fn.pad(doy, n)
      WHEN c = 'E' THEN CASE WHEN n >= 4 THEN to_char(w, 'FMDay') ELSE to_char(w, 'Dy') END
      WHEN c = 'a' THEN CASE WHEN h < 12 THEN 'AM' ELSE 'PM' END
      WHEN c = 'H' THEN svc_fn.pad(h, n)
      WHEN c = 'k' THEN svc_fn.pad(CASE WHEN h = 0 THEN 24 ELSE h END, n)
      WHEN c = 'K' THEN svc_fn.pad(h % 12, n)
      WHEN c = 'h' THEN svc_fn.pad(CASE WHEN h % 12 = 0 THEN 12 ELSE h % 12 END, n)
      WHEN c = 'm' THEN svc_fn.pad(mi, n)
      WHEN c = 's' THEN svc_fn.pad(s, n)
      WHEN c = 'S' THEN rpad(left(svc_fn.pad(ms, 3), n), n, '0')
      WHEN c = 'z' THEN svc_fn.zone_abbreviation(ts, svc_fn.zone_label(label))
      WHEN c = 'Z' THEN svc_fn.offset_text(off, false)
      WHEN c = 'X' THEN CASE WHEN off = 0 THEN 'Z' WHEN n = 1 THEN left(svc_fn.offset_text(off, false), 3)
                             ELSE svc_fn.offset_text(off, n >= 3) END
    END;
  END LOOP;
  RETURN out;
END $f$;

-- MySQL % specifiers (formatMysql).
CREATE OR REPLACE FUNCTION svc_fn.format_mysql(ts timestamptz, label text, fmt text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE
  w timestamp;
  h12 int;
  i int := 1;
  c text;
  out text := '';
BEGIN
  IF ts IS NULL OR fmt IS NULL THEN RETURN NULL; END IF;
  w := ts AT TIME ZONE svc_fn.zone(label);
  h12 := CASE WHEN extract(hour FROM w)::int % 12 = 0 THEN 12 ELSE extract(hour FROM w)::int % 12 END;
  WHILE i <= length(fmt) LOOP
    IF substr(fmt, i, 1) <> '%' OR i = length(fmt) OR substr(fmt, i + 1, 1) = E'\\n' THEN
      out := out || substr(fmt, i, 1); i := i + 1; CONTINUE;
    END IF;
    c := substr(fmt, i + 1, 1); i := i + 2;
    out := out || CASE c
      WHEN 'Y' THEN svc_fn.pad(extract(year FROM w)::bigint, 4)
      WHEN 'y' THEN svc_fn.pad(extract(year FROM w)::bigint % 100, 2)
      WHEN 'm' THEN to_char(w, 'MM')
      WHEN 'c' THEN extract(month FROM w)::int::text
      WHEN 'M' THEN to_char(w, 'FMMonth')
      WHEN 'b' THEN to_char(w, 'Mon')
      WHEN 'd' THEN to_char(w, 'DD')
      WHEN 'e' THEN extract(day FROM w)::int::text
      WHEN 'j' THEN to_char(w, 'DDD')
      WHEN 'H' THEN to_char(w, 'HH24')
      WHEN 'k' THEN extract(hour FROM w)::int::text
      WHEN 'h' THEN svc_fn.pad(h12, 2)
      WHEN 'I' THEN svc_fn.pad(h12, 2)
      WHEN 'l' THEN h12::text
      WHEN 'i' THEN to_char(w, 'MI')
      WHEN 's' THEN to_char(w, 'SS')
      WHEN 'S' THEN to_char(w, 'SS')
      WHEN 'f' THEN to_char(w, 'MS') || '000'
      WHEN 'p' THEN CASE WHEN extract(hour FROM w) < 12 THEN 'AM' ELSE 'PM' END
      WHEN 'T' THEN to_char(w, 'HH24:MI:SS')
      WHEN 'r' THEN svc_fn.pad(h12, 2) || to_char(w, ':MI:SS ') || CASE WHEN extract(hour FROM w) < 12 THEN 'AM' ELSE 'PM' END
      WHEN 'W' THEN to_char(w, 'FMDay')
      WHEN 'a' THEN to_char(w, 'Dy')
      WHEN 'w' THEN extract(dow FROM w)::int::text
      ELSE c END;
  END LOOP;
  RETURN out;
END $f$;

-- date_parse with the regular expression and fields mysqlParser made of the format (parseMysql), in UTC.
CREATE OR REPLACE FUNCTION svc_fn.date_parse(v text, pattern text, fields text[], fmt text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $f$
DECLARE
  m text[];
  f text;
  x text;
  y int := 1970; mo int := 1; d int := 1; h int := 0; mi int := 0; s int := 0; ms int := 0;
  pm boolean;
  months text[] := ARRAY['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
                         'october', 'november', 'december'];
BEGIN
  IF v IS NULL OR fmt IS NULL THEN RETURN NULL; END IF;
  m := regexp_match(btrim(v), pattern);
  IF m IS NOT NULL THEN
    FOR k IN 1 .. coalesce(array_length(fields, 1), 0) LOOP
      f := fields[k]; x := m[k];
      IF f = 'Y' THEN y := x::int;
      ELSIF f = 'y' THEN y := 2000 + x::int;
      ELSIF f IN ('m', 'c') THEN mo := x::int;
      ELSIF f IN ('b', 'M') THEN
        mo := 0;
        FOR j IN 1 .. 12 LOOP
          IF months[j] LIKE lower(x) || '%' THEN mo := j; EXIT; END IF;
        END LOOP;
      ELSIF f IN ('d', 'e') THEN d := x::int;
      ELSIF f IN ('H', 'k', 'h', 'I', 'l') THEN h := x::int;
      ELSIF f = 'i' THEN mi := x::int;
      ELSIF f IN ('s', 'S') THEN s := x::int;
      ELSIF f = 'f' THEN ms := floor(('0.' || x)::numeric * 1000);
      ELSIF f = 'p' THEN pm := upper(x) = 'PM';
      END IF;
    END LOOP;
  END IF;
  IF m IS NULL OR mo < 1 THEN RAISE EXCEPTION 'date_parse: "%" does not match "%".', v, fmt; END IF;
  IF pm IS NOT NULL THEN h := h % 12 + CASE WHEN pm THEN 12 ELSE 0 END; END IF;
  RETURN svc_fn.ts_text((make_timestamp(y, 1, 1, 0, 0, 0)
    + make_interval(months => mo - 1, days => d - 1, hours => h, mins => mi, secs => s + ms / 1000.0))
    AT TIME ZONE 'UTC', NULL);
END $f$;
`;

export const TIME_FUNCTIONS = ZONES + TIMESTAMPS + FORMATS;
