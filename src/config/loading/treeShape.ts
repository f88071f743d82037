import type { z } from 'zod';
import { formatPath, type ConfigProblem } from '../ConfigError.js';

/** Far deeper than any setting (jobs[0].queries[0].paging.window.field is 6), far shallower than the stack. */
export const MAX_DEPTH = 64;

/**
 * A tree that the recursive steps after it (interpolation, validation) could not walk: a cycle
 * (a JS config or a YAML alias that refers to itself) or nesting past MAX_DEPTH. Either would
 * end in a bare stack overflow instead of a message with a path.
 */
export function treeShapeProblem(tree: unknown, path: PropertyKey[] = [], ancestors: object[] = []): ConfigProblem | undefined {
  if (tree === null || typeof tree !== 'object') return undefined;
  const earlier = ancestors.indexOf(tree);
  if (earlier >= 0) {
    const target = formatPath(path.slice(0, earlier));
    return { path: formatPath(path), message: `the config has a cycle: this refers back to ${target || 'the whole config'}` };
  }
  if (ancestors.length >= MAX_DEPTH) return { path: formatPath(path), message: `the config nests deeper than ${MAX_DEPTH} levels here` };
  const entries: [PropertyKey, unknown][] = Array.isArray(tree) ? tree.map((item, index) => [index, item]) : Object.entries(tree);
  for (const [key, value] of entries) {
    // Assigned to an object, as validation does, the key would set its prototype and vanish.
    if (key === '__proto__') return { path: formatPath([...path, key]), message: PROTOTYPE_NAME };

    const problem = treeShapeProblem(value, [...path, key], [...ancestors, tree]);
    if (problem) return problem;
  }
  return undefined;
}

const PROTOTYPE_NAME = 'is a name every JavaScript object has (__proto__, constructor, toString…): it cannot name a setting, source or kind; rename it';

/** A name (a source's, a kind's) that a lookup by name would find on every object, declared or not. */
export const notPrototypeName = <Schema extends z.ZodType<string>>(schema: Schema) => schema.refine((name) => !(name in Object.prototype), PROTOTYPE_NAME);

/** A YAML mapping or JS object, not a list, scalar or null: what a config and its sections must be. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a value is, in words, for a message that must not quote it: "a list", "an object", "a number". */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
