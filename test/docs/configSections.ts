import { REFERENCE_ID } from '../../src/config/configJsonSchema.js';

/** A node of the config's JSON Schema, as far as the reference reads it (zod writes no boolean schemas there). */
export interface JsonSchema {
  $ref?: string;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  required?: string[];
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  definitions?: Record<string, JsonSchema>;
}

/** The config's JSON Schema as the reference reads it: its definitions, each a section of the page. */
export interface SchemaIndex {
  root: JsonSchema;
  definitions: Record<string, JsonSchema>;
}

/** An override (`pagingOverride`: every field optional, over the level below) is documented as the section it overrides. */
const OVERRIDE = /Override$/;

/** The section a definition is documented in. */
export function sectionOf(id: string): string {
  return id.replace(OVERRIDE, '');
}

/** The definition a node only refers to (`$ref`, or draft 07's `allOf: [{$ref}]` beside other keywords); undefined for any other node. */
export function referenceOf(node: JsonSchema): string | undefined {
  const target = node.$ref ?? (node.allOf?.length === 1 ? node.allOf[0]!.$ref : undefined);
  return target?.split('/').at(-1);
}

/** Where each section sits in a config file (`sources.<name>.paging`, `jobs[].paging`), in the order the schema first reaches each. */
export function sectionPaths(index: SchemaIndex): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  const visit = (node: JsonSchema, path: string): void => {
    const id = referenceOf(node);
    if (id === REFERENCE_ID) return;
    if (id !== undefined) {
      const section = sectionOf(id);
      const known = paths.has(section);
      paths.set(section, [...(paths.get(section) ?? []), path]);
      if (!known) visit(index.definitions[id]!, path);
      return;
    }
    for (const member of node.anyOf ?? node.oneOf ?? []) visit(member, path);
    for (const [name, property] of Object.entries(node.properties ?? {})) visit(property, path ? `${path}.${name}` : name);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${path}.<name>`);
    if (node.items) visit(node.items, `${path}[]`);
  };
  visit(index.root, '');
  return paths;
}

/**
 * The first value each option has in the shipped configs, as written there (a `${NAME}` reference
 * and all): by section, then by the option's path within it (`envelopes.maxAgeDays`, `query:name`).
 */
export function examplesIn(trees: readonly unknown[], index: SchemaIndex): Map<string, Map<string, unknown>> {
  const found = new Map<string, Map<string, unknown>>();
  const note = (section: string, option: string, value: unknown) => {
    const options = found.get(section) ?? new Map<string, unknown>();
    if (!options.has(option)) options.set(option, value);
    found.set(section, options);
  };
  const resolve = (node: JsonSchema) => {
    const id = referenceOf(node);
    return id === undefined ? node : index.definitions[id]!;
  };
  const visit = (value: unknown, node: JsonSchema, section: string, prefix: string): void => {
    const id = referenceOf(node);
    if (id !== undefined) return visit(value, index.definitions[id]!, sectionOf(id), '');
    const members = node.anyOf ?? node.oneOf;
    if (members) {
      // A form of a choice by `type` (auth's) keeps its options apart: `query:name`.
      const form = (member: JsonSchema) => resolve(member).properties?.type?.const;
      for (const member of members) if (holds(resolve(member), value)) visit(value, member, section, form(member) === undefined ? prefix : `${prefix}${String(form(member))}:`);
      return;
    }
    if (Array.isArray(value)) {
      if (node.items) for (const item of value) visit(item, node.items, section, prefix);
      return;
    }
    if (!holds(node, value)) return;
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      const property = node.properties?.[key];
      if (property) {
        note(section, `${prefix}${key}`, field);
        visit(field, property, section, `${prefix}${key}.`);
      } else if (typeof node.additionalProperties === 'object') visit(field, node.additionalProperties, section, prefix);
    }
  };
  for (const tree of trees) visit(tree, index.root, '', '');
  return found;
}

/** Whether a value is of the node's shape, as far as the walk needs: a list, or an object of its `type` constant where it has one. */
function holds(node: JsonSchema, value: unknown): boolean {
  if (Array.isArray(value)) return node.type === 'array';
  if (value === null || typeof value !== 'object') return false;
  if (node.properties === undefined && node.additionalProperties === undefined) return false;
  const type = node.properties?.type?.const;
  return type === undefined || (value as { type?: unknown }).type === type;
}
