import { z } from 'zod';
import { forEachValues } from './jobs/forEachSchema.js';
import { configSchema } from './schema.js';
import { rateLimitSchema, rateWindowSchema } from './sources/sourceSchema.js';

/** A JSON Schema node, as z.toJSONSchema writes it. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** Draft 07, which editors' YAML and JSON language servers read best; its definitions sit here. */
const TARGET = 'draft-07';
const DEFINITIONS = 'definitions';
const ref = (id: string): JsonSchema => ({ $ref: `#/${DEFINITIONS}/${id}` });

/**
 * A `${NAME}` or `${NAME:-default}` reference: the loader replaces it from the environment before
 * validating, so a text or number setting may be one (a number's text is read as the number).
 */
export const REFERENCE_ID = 'environmentReference';
const referenceSchema: JsonSchema = {
  type: 'string',
  pattern: '\\$\\{[A-Za-z_][A-Za-z0-9_]*(\\}|:-)',
  description: 'A `${NAME}` or `${NAME:-default}` reference, replaced from the environment before the config is validated.',
};

/** The keywords that constrain a scalar: a reference need not meet them, so they go into a branch of their own. */
const SCALAR_CONSTRAINTS = ['type', 'pattern', 'format', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength'] as const;
/** A whole number written as text (`limit: "25"`), which the loader reads as the number (see bounds.ts). */
const INTEGER_TEXT_ID = 'integerText';
const integerTextSchema = { type: 'string', pattern: String.raw`^\s*-?\d+(\.0*)?\s*$`, description: 'a whole number, as text' };
/** Constraints that text holding a reference would fail; a bare minimum length it meets. */
const TEXT_CONSTRAINTS = ['pattern', 'format', 'enum', 'maxLength'];
/** Keywords whose values are data, not schemas, or a map's key names (never interpolated). */
const NOT_SCHEMAS = new Set(['default', 'examples', 'enum', 'const', 'propertyNames']);

const WINDOW_ID = 'rateWindow';
/** The formats of JSON Schema that zod writes; zod's own (`starts_with`) would mean nothing to an editor. */
const FORMATS = new Set(['uri', 'uuid', 'email', 'date-time', 'date', 'time', 'ipv4', 'ipv6', 'hostname']);

/**
 * The config's JSON Schema, for editors (`feedsync config schema`, feedsync.schema.json): what a
 * config file may hold, zod's input side. Defaults are those the loader fills in; refinements
 * (checks across fields, cron expressions) are `config check`'s to make.
 */
export function configJsonSchema(): JsonSchema {
  return inputJsonSchema(configSchema);
}

/** The config's JSON Schema as feedsync.schema.json holds it and `feedsync config schema` prints it. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

/**
 * The input JSON Schema of the config or one of its sections. Where zod cannot see the input (a
 * value read by hand, a preprocess that takes text too), the node says what is taken.
 */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  let hidesWindow = false;
  const json = toJsonSchema(schema, (zodSchema, jsonSchema) => {
    if (derivesFrom(zodSchema, rateLimitSchema)) {
      jsonSchema.anyOf = [ref(WINDOW_ID), { type: 'array', items: ref(WINDOW_ID), minItems: 1 }];
      hidesWindow = true;
    }
    // Once: a copy's node may already hold what its original's became.
    if (derivesFrom(zodSchema, forEachValues) && jsonSchema.type === 'array') alsoText(jsonSchema);
  });
  const window = hidesWindow ? (toJsonSchema(rateWindowSchema)[DEFINITIONS] as Record<string, JsonSchema>) : {};
  const accepting = acceptReferences({ ...json, [DEFINITIONS]: { ...(json[DEFINITIONS] as Record<string, JsonSchema> | undefined), ...window } }) as JsonSchema;
  return { ...accepting, [DEFINITIONS]: { ...(accepting[DEFINITIONS] as Record<string, JsonSchema>), [REFERENCE_ID]: referenceSchema, [INTEGER_TEXT_ID]: integerTextSchema } };
}

function toJsonSchema(schema: z.ZodType, override?: (zodSchema: z.core.$ZodType, jsonSchema: JsonSchema) => void): JsonSchema {
  return z.toJSONSchema(schema, {
    target: TARGET,
    // The input side has nothing zod cannot write (transforms sit on the output side): left to throw, a new one fails the staleness test.
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      restoreDefault(zodSchema, jsonSchema);
      if (typeof jsonSchema.format === 'string' && !FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
      override?.(zodSchema, jsonSchema);
    },
  });
}

/**
 * zod leaves out the default and the examples of a transforming schema's input (a number that may
 * come as text): the default is what a config that leaves the field out gets, and the examples are
 * written as a config would write them.
 */
function restoreDefault(schema: z.core.$ZodType, json: JsonSchema): void {
  const def = schema._zod.def;
  if (def.type === 'default' && !('default' in json)) json.default = JSON.parse(JSON.stringify((def as z.core.$ZodDefaultDef).defaultValue)) as unknown;
  const examples = z.globalRegistry.get(schema)?.examples;
  if (Array.isArray(examples) && !('examples' in json)) json.examples = examples as unknown[];
}

/** A list that may also be written as one string of comma-separated values. */
function alsoText(json: JsonSchema): void {
  const list: JsonSchema = {};
  for (const key of Object.keys(json)) {
    if (key === 'description') continue;
    list[key] = json[key];
    delete json[key];
  }
  json.anyOf = [list, { type: 'string', description: 'comma-separated values' }];
}

/** Whether `schema` is `target` or a copy of it made by `.describe()` or `.meta()`. */
function derivesFrom(schema: z.core.$ZodType, target: z.core.$ZodType): boolean {
  for (let at: z.core.$ZodType | undefined = schema; at; at = at._zod.parent) if (at === target) return true;
  return false;
}

/**
 * `node` with every constrained text or integer setting also taking an environment reference,
 * and every integer its text (the loader reads both; other numbers sit in unions with text), and the unions this
 * nests flattened into one.
 */
function acceptReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(acceptReferences);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, NOT_SCHEMAS.has(key) ? value : acceptReferences(value)]));
  if (Array.isArray(copy.anyOf)) copy.anyOf = flatUnion(copy.anyOf);
  const text = copy.type === 'string' && TEXT_CONSTRAINTS.some((key) => key in copy);
  if (!(copy.type === 'integer' || text) || 'const' in copy) return copy;
  const scalar: Record<string, unknown> = {};
  for (const key of SCALAR_CONSTRAINTS) {
    if (key in copy) scalar[key] = copy[key];
    delete copy[key];
  }
  return { ...copy, anyOf: scalar.type === 'integer' ? [scalar, ref(INTEGER_TEXT_ID), ref(REFERENCE_ID)] : [scalar, ref(REFERENCE_ID)] };
}

/** A union's members, a member that is itself only a union replaced by its members, each once. */
function flatUnion(members: unknown[]): unknown[] {
  const flat = members.flatMap((member): unknown[] => {
    const only = member !== null && typeof member === 'object' && Object.keys(member).length === 1 ? (member as { anyOf?: unknown }).anyOf : undefined;
    return Array.isArray(only) ? only : [member];
  });
  const texts = flat.map((member) => JSON.stringify(member));
  return flat.filter((_member, index) => texts.indexOf(texts[index]!) === index);
}
