/** A JSON value's type, as a reader of the body tells them apart. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/**
 * Every place in a JSON value and the types found there. A place is its field names from the top,
 * joined with `.`; a list's items are one place, `[]`, holding every item's fields, so that the
 * shape of a list is that of all its items together (the track playing now and a dated one).
 */
export type JsonShape = ReadonlyMap<string, ReadonlySet<JsonType>>;

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'object') return type;
  throw new TypeError(`not a JSON value: ${type}`);
}

/** The shape of `value`: its own place is ''. */
export function shapeOf(value: unknown): JsonShape {
  const shape = new Map<string, Set<JsonType>>();
  const visit = (place: string, at: unknown) => {
    const type = jsonTypeOf(at);
    let types = shape.get(place);
    if (types === undefined) shape.set(place, (types = new Set()));
    types.add(type);
    if (type === 'array') for (const item of at as unknown[]) visit(`${place}[]`, item);
    else if (type === 'object') for (const [name, field] of Object.entries(at as object)) visit(place === '' ? name : `${place}.${name}`, field);
  };
  visit('', value);
  return shape;
}

/** A place where another body falls short of the real one: absent there (`found` empty), or of a type the real body never has there. */
export interface ShapeDifference {
  place: string;
  real: JsonType[];
  found: JsonType[];
}

/**
 * Where `found` differs from `real`: each place the real body has that `found` lacks, and each
 * place where `found` has a type the real body never has there. Places only `found` has are not
 * differences, nor places under one whose type already differs. `allowed` places are skipped, and
 * every place under them.
 */
export function shapeDifferences(real: JsonShape, found: JsonShape, allowed: readonly string[] = []): ShapeDifference[] {
  const differences: ShapeDifference[] = [];
  const within = (place: string, outer: string) => place === outer || place.startsWith(`${outer}.`) || place.startsWith(`${outer}[]`);
  for (const [place, realTypes] of real) {
    if (allowed.some((outer) => within(place, outer))) continue;
    if (differences.some((difference) => difference.place !== '' && within(place, difference.place))) continue;
    const foundTypes = found.get(place) ?? new Set<JsonType>();
    if (foundTypes.size === 0 || [...foundTypes].some((type) => !realTypes.has(type))) {
      differences.push({ place, real: [...realTypes].sort(), found: [...foundTypes].sort() });
    }
  }
  return differences;
}

/** The differences as lines a failed test shows: `place: real string, found number`. */
export function describeDifferences(differences: readonly ShapeDifference[]): string[] {
  return differences.map(({ place, real, found }) => `${place || '(the body)'}: real ${real.join(' | ')}, found ${found.length === 0 ? 'nothing' : found.join(' | ')}`);
}
