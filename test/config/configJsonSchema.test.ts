import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configJsonSchema, type JsonSchema } from '../../src/config/configJsonSchema.js';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { retryPolicySchema } from '../../src/config/schema.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_FILE = join(ROOT, 'feedsync.schema.json');
const SHIPPED = ['feedsync.yaml', ...readdirSync(join(ROOT, 'examples')).map((name) => join('examples', name))];

const schema = configJsonSchema();
const definitions = schema.definitions as Record<string, JsonSchema>;
/** What an editor checks a config against: the JSON Schema, read back as a validator. */
const editorCheck = z.fromJSONSchema(schema);
const shipped = (file: string) => parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

/** Every property of the schema, at any depth, with where it sits. */
function properties(node: unknown = schema, at = '(config)'): { at: string; property: JsonSchema }[] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key === 'properties') return Object.entries(value as Record<string, JsonSchema>).flatMap(([name, property]) => [{ at: `${at}.${name}`, property }, ...properties(property, `${at}.${name}`)]);
    if (key === 'definitions') return Object.entries(value as Record<string, JsonSchema>).flatMap(([id, definition]) => properties(definition, id));
    return key === 'default' || key === 'examples' ? [] : properties(value, at);
  });
}

/** A property's own description, or that of the definition it only refers to. */
function descriptionOf(property: JsonSchema): string | undefined {
  const target = property.$ref ?? property.allOf?.[0]?.$ref;
  return property.description ?? (target ? definitions[target.split('/').at(-1)!]?.description : undefined);
}

describe("the config's JSON Schema", () => {
  it.each(SHIPPED)('%s names feedsync.schema.json in its first line, for editors', (file) => {
    const [first] = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const path = /^# yaml-language-server: \$schema=(\S+)$/.exec(first!)?.[1];
    expect(path && resolve(dirname(join(ROOT, file)), path)).toBe(SCHEMA_FILE);
  });

  it.each(SHIPPED)('accepts %s, ${NAME} references and all', (file) => {
    expect(editorCheck.safeParse(shipped(file)).error?.issues).toBeUndefined();
  });

  it('refuses a setting out of its range, deep in a query', () => {
    const config = shipped('feedsync.yaml');
    (config.jobs as { queries: { paging?: unknown }[] }[])[0]!.queries[0]!.paging = { limit: 0 };
    expect(editorCheck.safeParse(config).success).toBe(false);
  });

  it('takes a whole number written as text, as the loader does, and refuses other text there', () => {
    const config = (limit: unknown) => ({ ...shipped('feedsync.yaml'), worker: { httpPort: limit } });
    expect(editorCheck.safeParse(config(' 9464 ')).success).toBe(true);
    expect(editorCheck.safeParse(config('9464.5')).success).toBe(false);
    expect(editorCheck.safeParse(config('port')).success).toBe(false);
  });

  it('takes a number or a UUID given as a ${NAME} reference, as the loader does', () => {
    const config = { ...shipped('feedsync.yaml'), worker: { httpPort: '${PORT:-9464}' } };
    expect(editorCheck.safeParse(config).success).toBe(true);
    const env = { MUSIC_BASE_URL: 'http://music', MUSIC_API_KEY: 'k', EXPLORER_BASE_URL: 'http://explorer', EXPLORER_API_KEY: 'k', WEBHOOK_BASE_URL: 'http://hook', WEBHOOK_UUID: '8d3b1c2a-6a44-4b7e-9a35-0a3c0e8f2b11' };
    expect(parseConfig(config, 'feedsync.yaml', env).worker.httpPort).toBe(9464);
  });

  it('takes a rate limit of one window or a list of windows', () => {
    const withLimit = (rateLimit: unknown) => {
      const config = shipped('feedsync.yaml');
      (config.sources as Record<string, Record<string, unknown>>).music!.rateLimit = rateLimit;
      return editorCheck.safeParse(config).success;
    };
    expect([withLimit({ max: 5 }), withLimit([{ max: 4 }, { max: 100_000, durationMs: 86_400_000 }]), withLimit([]), withLimit({ most: 5 })]).toEqual([true, true, false, false]);
  });

  it('shows the defaults the loader fills in, numbers read from text included', () => {
    const retry = definitions.retry!.properties as Record<string, JsonSchema>;
    expect(Object.fromEntries(Object.entries(retry).map(([name, property]) => [name, property.default]))).toEqual(retryPolicySchema.parse({}));
  });

  it('describes every option, for the editor to show', () => {
    expect(properties().filter(({ property }) => descriptionOf(property) === undefined).map(({ at }) => at)).toEqual([]);
  });
});
