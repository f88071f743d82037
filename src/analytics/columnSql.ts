import type { ColumnType, KindColumn } from '../config/analytics/kindsSchema.js';

/** A column of a kind's view: its value as the payload holds it (text), and cast to its type, NULL when it does not cast. */
export interface ColumnSql {
  /** The value as text, NULL when absent: what `views check` compares the cast against. */
  text: string;
  /** The value cast to the column's type; a value that does not cast gives NULL, never an error. */
  typed: string;
}

/** A double-quoted identifier (names are checked identifiers already; quoting keeps reserved words usable). */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A single-quoted SQL string literal; as Postgres's quote_literal, an escape string when it holds a backslash, which then means the same whatever standard_conforming_strings says. */
export const quoteLiteral = (text: string): string =>
  text.includes('\\') ? `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'` : `'${text.replaceAll("'", "''")}'`;

/**
 * `(payload #>> array['a', 'b']::text[])`, parenthesised as casts bind tighter than #>>. Each
 * segment is a literal of its own: in array-literal text (`'{a,b}'`) a segment `null` is a NULL
 * element (no value, ever), and quotes, braces, commas and backslashes are syntax.
 */
function extract(payload: string, path: string, operator: '#>>' | '#>'): string {
  return `(${payload} ${operator} array[${path.split('.').map(quoteLiteral).join(', ')}]::text[])`;
}

const INTEGER_TEXT = String.raw`^\s*[-+]?[0-9]+\s*$`;
const NUMBER_TEXT = String.raw`^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,4})?\s*$`;
const TRUE_WORDS = `('true', 't', 'yes', 'y', 'on', '1')`;
const FALSE_WORDS = `('false', 'f', 'no', 'n', 'off', '0')`;
/** Seconds since 1970 that Postgres's timestamp range holds. */
const UNIX_SECONDS_RANGE = 'between -210866803200 and 9224318015999';

/** An integer type's cast: digits, within the type's range (checked as numeric first: a nested CASE evaluates in order). */
const integerCast = (value: string, type: string, min: string, max: string): string =>
  `case when ${value} ~ '${INTEGER_TEXT}' then case when ${value}::numeric between ${min} and ${max} then (${value})::${type} end end`;

const numericCast = (value: string): string => `case when ${value} ~ '${NUMBER_TEXT}' then (${value})::numeric end`;

/** Seconds since 1970 as timestamptz; NULL beyond what timestamptz holds. */
const unixSecondsCast = (value: string): string => `case when ${value} ~ '${NUMBER_TEXT}' then case when ${value}::numeric ${UNIX_SECONDS_RANGE} then to_timestamp(${value}::numeric) end end`;

/** How each type casts text; timestamps and dates by their `from`. A new type is one entry here. */
const CASTS: Record<Exclude<ColumnType, 'jsonb'>, (value: string, column: KindColumn) => string> = {
  text: (value) => value,
  integer: (value) => integerCast(value, 'integer', '-2147483648', '2147483647'),
  bigint: (value) => integerCast(value, 'bigint', '-9223372036854775808', '9223372036854775807'),
  numeric: numericCast,
  boolean: (value) => `case when lower(btrim(${value})) in ${TRUE_WORDS} then true when lower(btrim(${value})) in ${FALSE_WORDS} then false end`,
  timestamptz: (value, column) => (column.from === 'unix_seconds' ? unixSecondsCast(value) : `feedsync_try_timestamptz(${value})`),
  date: (value, column) => (column.from === 'unix_seconds' ? `(${unixSecondsCast(value)} at time zone 'UTC')::date` : `feedsync_try_date(${value})`),
};

/** The SQL of a column over `payload` (a jsonb expression). */
export function columnSql(column: KindColumn, payload = 'payload'): ColumnSql {
  const coalesced = (operator: '#>>' | '#>'): string => {
    const parts = column.path.map((path) => (operator === '#>' ? `nullif(${extract(payload, path, operator)}, 'null'::jsonb)` : extract(payload, path, operator)));
    return parts.length === 1 ? parts[0]! : `coalesce(${parts.join(', ')})`;
  };
  const text = coalesced('#>>');
  return { text, typed: column.type === 'jsonb' ? coalesced('#>') : CASTS[column.type](text, column) };
}
