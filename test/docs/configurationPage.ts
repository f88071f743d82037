import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { configJsonSchema, inputJsonSchema, REFERENCE_ID } from '../../src/config/configJsonSchema.js';
import { INT32_MAX } from '../../src/config/bounds.js';
import { recordSelectorSchema } from '../../src/config/schema.js';
import { examplesIn, referenceOf, sectionOf, sectionPaths, type JsonSchema, type SchemaIndex } from './configSections.js';
import { replaceBlock } from './generatedBlock.js';

const BEGIN = '<!-- reference: written by npm run docs:write from the zod schema in src/config; test/docs/generatedDocs.test.ts keeps it current -->';
const END = '<!-- end of reference -->';

/** The configs whose values the reference shows as examples, the real services' first. */
const SHIPPED = ['examples/lastfm.yaml', 'examples/etherscan.yaml', 'feedsync.yaml'];
/** A longer example is left out: the shipped configs show it in full. */
const EXAMPLE_MAX = 60;
/** The config's top level: a mapping of sections, as `config check` calls them. */
const ROOT_SECTION = 'sections';

/** A section the config holds only as overrides (every field optional) is documented from what a query ends with. */
const OVERRIDDEN = [recordSelectorSchema];

/** One option as the reference shows it, each part as Markdown. */
export interface OptionRow {
  option: string;
  type: string;
  default: string;
  description: string;
  example: string;
}

/** A section: where it sits in a config, what it is, and its options (for a choice of forms, each form's). */
export interface ReferenceSection {
  id: string;
  paths: string[];
  description: string;
  forms: { label?: string; rows: OptionRow[] }[];
}

/** The config's JSON Schema with the sections only its overrides name. */
function schemaIndex(): SchemaIndex {
  const root = configJsonSchema() as JsonSchema;
  const definitions = { ...root.definitions };
  for (const schema of OVERRIDDEN) Object.assign(definitions, (inputJsonSchema(schema) as JsonSchema).definitions, definitions);
  return { root, definitions };
}

const code = (value: unknown) => `\`${typeof value === 'string' ? value : stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim()}\``;
const link = (id: string) => `[${sectionOf(id)}](#${sectionOf(id).toLowerCase()})`;

/** An option's type as a reader wants it: `integer 1–20`, `list of text`, a link to its section. */
function typeOf(node: JsonSchema): string {
  const id = referenceOf(node);
  if (id !== undefined) return link(id);
  const members = node.anyOf ?? node.oneOf;
  if (members) {
    const named = members.filter((member) => referenceOf(member) !== REFERENCE_ID).map((member) => (member.description && member.type ? `${typeOf(member)} (${member.description})` : typeOf(member)));
    return [...new Set(named)].join(' or ');
  }
  if (node.const !== undefined) return code(node.const);
  if (node.enum) return node.enum.map(code).join(', ');
  if (Array.isArray(node.type)) return node.type.map((type) => typeOf({ type })).join(' or ');
  switch (node.type) {
    case 'integer':
      return node.maximum !== undefined && node.maximum < INT32_MAX ? `integer ${node.minimum?.toLocaleString('en-US')}–${node.maximum.toLocaleString('en-US')}` : `integer ≥ ${node.minimum}`;
    case 'string':
      return node.format === 'uri' ? 'URL' : node.format === 'uuid' ? 'UUID' : 'text';
    case 'array': {
      const items = typeOf(node.items!);
      return `list of ${items.includes(' or ') ? `(${items})` : items}`;
    }
    case 'object':
      return typeof node.additionalProperties === 'object' ? `map of name → ${typeOf(node.additionalProperties)}` : 'mapping';
    default:
      return String(node.type);
  }
}

/** An object's options as rows, an inline mapping's own options after it (`envelopes.maxAgeDays`); `form` keys a choice's examples. */
function rowsOf(node: JsonSchema, index: SchemaIndex, examples: ReadonlyMap<string, unknown>, form = '', prefix = ''): OptionRow[] {
  return Object.entries(node.properties ?? {}).flatMap(([name, property]) => {
    const option = `${prefix}${name}`;
    const id = referenceOf(property);
    const example = [examples.get(`${form}${option}`), ...(property.examples ?? [])].find((value) => value !== undefined && code(value).length <= EXAMPLE_MAX);
    const required = node.required?.includes(name) ? 'required' : '';
    const row: OptionRow = {
      option: code(option),
      type: typeOf(property),
      default: property.default === undefined ? required : code(property.default),
      description: property.description ?? (id === undefined ? undefined : index.definitions[id]?.description) ?? '',
      example: example === undefined ? '' : code(example),
    };
    return [row, ...(property.type === 'object' && property.properties ? rowsOf(property, index, examples, form, `${option}.`) : [])];
  });
}

/** Every section of the config, in the order the schema first reaches each, its top level first. */
export async function referenceSections(): Promise<ReferenceSection[]> {
  const index = schemaIndex();
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const examples = examplesIn(await Promise.all(SHIPPED.map(async (file) => parse(await readFile(`${root}${file}`, 'utf8')) as unknown)), index);
  return [[ROOT_SECTION, []] as [string, string[]], ...sectionPaths(index)].map(([id, paths]) => {
    const node = id === ROOT_SECTION ? index.root : index.definitions[id]!;
    const own = examples.get(id === ROOT_SECTION ? '' : id) ?? new Map<string, unknown>();
    const forms = node.oneOf
      ? node.oneOf.map((form) => {
          const type = String(form.properties?.type?.const);
          return { label: `**\`type: ${type}\`**: ${form.description ?? ''}`, rows: rowsOf(form, index, own, `${type}:`).filter((row) => row.option !== '`type`') };
        })
      : [{ rows: rowsOf(node, index, own) }];
    return { id, paths, description: node.description ?? '', forms };
  });
}

/** A table cell: a `|` would end it, even within code. */
const cell = (text: string) => text.replace(/\|/g, '\\|');
const tableLine = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;

function renderSection({ id, paths, description, forms }: ReferenceSection): string[] {
  const where = paths.length > 0 ? [`In ${paths.map((path) => `\`${path}\``).join(', ')}.`, ''] : [];
  const tables = forms.flatMap(({ label, rows }) => [
    ...(label ? [label, ''] : []),
    ...(rows.length > 0 ? [tableLine(['option', 'type', 'default', 'description', 'example']), '| --- | --- | --- | --- | --- |', ...rows.map((row) => tableLine([row.option, row.type, row.default, row.description, row.example])), ''] : []),
  ]);
  return [`### ${id}`, '', ...where, ...(description ? [description, ''] : []), ...tables];
}

/** The reference block of docs/configuration.md: every option of the config with its type, default, description and an example. */
export async function referenceBlock(): Promise<string> {
  const intro = `Made from the zod schema, as [feedsync.schema.json](../feedsync.schema.json) is. Each section below is a mapping; an option's example is the first value ${SHIPPED.map((file) => `[\`${file}\`](../${file})`).join(', ')} give it, else one the schema gives. Every integer, and text with a form (a URL, a dot path, a choice), also takes a \`\${NAME}\` or \`\${NAME:-default}\` reference. An integer is at most 2,147,483,647 (a Postgres \`int\`) unless its type says less.`;
  return [BEGIN, '', intro, '', ...(await referenceSections()).flatMap(renderSection), END].join('\n');
}

/** docs/configuration.md with its reference block made anew. */
export async function pageWithReference(page: string): Promise<string> {
  return replaceBlock(page, { begin: BEGIN, end: END, block: await referenceBlock(), name: 'docs/configuration.md' });
}
