import { parse } from 'yaml';
import { dotPath } from '../config/records/dotPath.js';
import type { ColumnType, KindColumn } from '../config/analytics/kindsSchema.js';
import { RECORD_COLUMNS } from '../config/analytics/kindsSchema.js';
import type { RecordLeafRow } from './statements/readRecordLeaves.js';

/** What the values sampled at one path were. */
interface PathValues {
  path: string[];
  /** JSON types seen, nulls and empty strings aside. */
  types: Set<RecordLeafRow['type']>;
  texts: string[];
}

const INT64 = 9_223_372_036_854_775_807n;
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d{1,4})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Field names that hold a time when they hold seconds since 1970 (Last.fm's `uts`, Etherscan's `timeStamp`). */
const TIME_NAME = /(^uts$|timestamp$|time$|date$|_at$)/i;
/** 1973 to 2286: integers in this range under a time-like name are taken for seconds since 1970. */
const UNIX_SECONDS = { min: 100_000_000n, max: 9_999_999_999n };

/**
 * The columns of a kind's view, inferred from sampled records: one per leaf path (objects walked
 * into), with the narrowest type every sampled value fits, integers no narrower than bigint and
 * digits sent as text numeric (see typeOf); arrays and paths whose values mix
 * objects and scalars are jsonb. Nulls and empty strings fit any type (a view shows them as NULL).
 */
export function inferColumns(leaves: Iterable<RecordLeafRow>): Record<string, KindColumn> {
  const byPath = new Map<string, PathValues>();
  for (const leaf of leaves) {
    const id = leaf.path.join('\u0000');
    let values = byPath.get(id);
    if (!values) byPath.set(id, (values = { path: leaf.path, types: new Set(), texts: [] }));
    if (leaf.type === 'null' || leaf.text === '') continue;
    values.types.add(leaf.type);
    if (leaf.text !== null) values.texts.push(leaf.text);
  }
  // A path that holds an object in some record and something else in another is one jsonb column; its children are not columns.
  const whole = [...byPath.values()].filter((values) => values.types.has('object') && values.types.size > 1).map((values) => values.path);
  const under = (path: string[], parent: string[]) => path.length > parent.length && parent.every((segment, index) => path[index] === segment);
  const columns: Record<string, KindColumn> = {};
  const sorted = [...byPath.values()].sort((a, b) => a.path.join('.').localeCompare(b.path.join('.')));
  for (const values of sorted) {
    if (!values.path.every(isDotPathSegment) || whole.some((parent) => under(values.path, parent))) continue;
    if (values.types.size === 1 && values.types.has('object')) continue;
    columns[uniqueName(columnName(values.path), columns)] = { path: [values.path.join('.')], ...typeOf(values) };
  }
  return columns;
}

/**
 * A field a dot path can name: one segment of one (no "." in it, no quote or space, not
 * __proto__). A column at any other path would be refused by the config it is printed for.
 */
function isDotPathSegment(segment: string): boolean {
  return !segment.includes('.') && dotPath.safeParse(segment).success;
}

function typeOf(values: PathValues): { type: ColumnType; from?: 'unix_seconds' } {
  const { types, texts } = values;
  if (types.has('array') || types.has('object')) return { type: 'jsonb' };
  if (texts.length === 0) return { type: 'text' };
  if (texts.every((text) => text === 'true' || text === 'false')) return { type: 'boolean' };
  if (texts.every((text) => INTEGER.test(text))) {
    const numbers = texts.map(BigInt);
    const name = values.path[values.path.length - 1]!;
    if (TIME_NAME.test(name) && numbers.every((n) => n >= UNIX_SECONDS.min && n <= UNIX_SECONDS.max)) return { type: 'timestamptz', from: 'unix_seconds' };
    // Digits sent as text are most often amounts (wei, gas prices) that a sample's small values belie.
    if (types.has('string')) return { type: 'numeric' };
    // A JSON integer: bigint at the least, as a sample's largest says little of the next value's.
    const widest = numbers.reduce((max, n) => {
      const size = n < 0n ? -n : n;
      return size > max ? size : max;
    }, 0n);
    return { type: widest <= INT64 ? 'bigint' : 'numeric' };
  }
  if (texts.every((text) => NUMBER.test(text))) return { type: 'numeric' };
  if (texts.every((text) => DATE.test(text) && !Number.isNaN(Date.parse(text)))) return { type: 'date' };
  if (texts.every((text) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)))) return { type: 'timestamptz' };
  return { type: 'text' };
}

/** snake_case of a path: `artist.name` → artist_name, `blockNumber` → block_number, `@attr.nowplaying` → attr_nowplaying. */
export function columnName(path: readonly string[]): string {
  const name = path
    .map((segment) => segment.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2'))
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 56);
  if (name === '') return 'value';
  const named = /^[0-9]/.test(name) ? `_${name}` : name;
  return (RECORD_COLUMNS as readonly string[]).includes(named) ? `${named}_value` : named;
}

function uniqueName(name: string, taken: Record<string, unknown>): string {
  if (!(name in taken)) return name;
  for (let suffix = 2; ; suffix++) if (!(`${name}_${suffix}` in taken)) return `${name}_${suffix}`;
}

/** The `kinds.<kind>` YAML of these columns, ready to paste into a config (and read back as printed). */
export function kindYaml(kind: string, columns: Readonly<Record<string, KindColumn>>): string {
  const lines = Object.entries(columns).map(([name, column]) => {
    const from = column.from === undefined ? '' : `, from: ${column.from}`;
    return `      ${yamlKey(name)}: { path: ${JSON.stringify(column.path[0])}, type: ${column.type}${from} }`;
  });
  return `kinds:\n  ${yamlKey(kind)}:\n    columns:\n${lines.length > 0 ? lines.join('\n') : '      {}'}\n`;
}

/** A name as a YAML key: quoted when YAML would read it as something else (`null`, `true`, a number). */
function yamlKey(name: string): string {
  return parse(name) === name ? name : JSON.stringify(name);
}
