import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../../src/config/configJsonSchema.js';
import { pageWithResults, RESULTS_FILE } from '../bench/benchmarksPage.js';
import { pageWithReference } from './configurationPage.js';

/** A committed file made from the code; `made` gets the file as it stands, for the hand-written text a page keeps. */
export interface GeneratedDoc {
  path: string;
  made(current: string): string | Promise<string>;
}

const ROOT = new URL('../../', import.meta.url);

/** What `npm run docs:write` writes, and generatedDocs.test.ts keeps current. */
export const GENERATED_DOCS: readonly GeneratedDoc[] = [
  { path: 'feedsync.schema.json', made: () => configJsonSchemaText() },
  { path: 'docs/configuration.md', made: pageWithReference },
  // Its results block, from the committed results.json (`npm run bench` writes both).
  { path: 'docs/benchmarks.md', made: async (page) => pageWithResults(page, JSON.parse(await readFile(RESULTS_FILE, 'utf8')) as Parameters<typeof pageWithResults>[1]) },
];

/** The file's committed text, or '' when there is none yet. */
export async function committedText(doc: GeneratedDoc): Promise<string> {
  return readFile(fileURLToPath(new URL(doc.path, ROOT)), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
}

/** Writes every generated file anew. */
export async function writeGeneratedDocs(): Promise<void> {
  for (const doc of GENERATED_DOCS) await writeFile(fileURLToPath(new URL(doc.path, ROOT)), await doc.made(await committedText(doc)));
}
