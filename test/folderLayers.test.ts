import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * src/'s top-level folders from the bottom up: a folder may import those before it, never one
 * after it. `runtime` is the wiring that knows everything a process runs; the local stack and the
 * simulator are development tools only the command line loads.
 */
const LAYERS = ['config', 'redis', 'observability', 'http', 'paging', 'storage', 'analytics', 'sync', 'jobs', 'scheduling', 'notices', 'history', 'runtime', 'localstack', 'simulator', 'cli'];

/** Relative specifiers of every static import, re-export and dynamic import in a source file. */
const SPECIFIERS = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

interface FolderImport {
  from: string;
  to: string;
  file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level folder of src/ a path lies in; undefined for files at src/'s top (the package entry). */
function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Every import that crosses from one top-level folder to another. */
function folderImports(): FolderImport[] {
  const found: FolderImport[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const to = folderOf(resolve(dirname(file), specifier!));
      if (to && to !== from) found.push({ from, to, file: relative(SRC, file) });
    }
  }
  return found;
}

/** A cycle among the folders, as a path that returns to its start; undefined if there is none. */
function findCycle(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (folder: string, path: string[]): string[] | undefined => {
    const seen = path.indexOf(folder);
    if (seen !== -1) return [...path.slice(seen), folder];
    if (done.has(folder)) return undefined;
    for (const next of edges.get(folder) ?? []) {
      const cycle = visit(next, [...path, folder]);
      if (cycle) return cycle;
    }
    done.add(folder);
    return undefined;
  };
  for (const folder of edges.keys()) {
    const cycle = visit(folder, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Static imports and re-exports that load code: `import type`, `export type` and imports of nothing but types are left out. */
const CODE_IMPORTS = /^\s*(?:import|export)\s+(?!type\b)([^'"]*?)\s*from\s+['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function loadsCode(clause: string): boolean {
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  return !named || named[1]!.split(',').some((name) => name.trim() !== '' && !name.trim().startsWith('type '));
}

/** Each source file and the files whose code it loads. */
function fileImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const loaded = new Set<string>();
    for (const [, clause, from, bare] of readFileSync(file, 'utf8').matchAll(CODE_IMPORTS)) {
      if (bare !== undefined || loadsCode(clause!)) loaded.add(relative(SRC, resolve(dirname(file), (from ?? bare)!.replace(/\.js$/, '.ts'))));
    }
    edges.set(relative(SRC, file), loaded);
  }
  return edges;
}

describe('src files', () => {
  it('finds the imports that load code, and leaves out those of types only', () => {
    const edges = fileImports();
    expect(edges.get('cli/main.ts')?.size).toBeGreaterThan(0);
    expect(loadsCode('{ type Config, type JobConfig }')).toBe(false);
    expect(loadsCode('{ recordSelectorSchema, type Config }')).toBe(true);
  });

  it('has no cycle of imports between files, type imports aside', () => {
    expect(findCycle(fileImports())).toBeUndefined();
  });
});

describe('src folder layers', () => {
  const imports = folderImports();

  it('finds the imports between folders (the check reads real code)', () => {
    expect(imports.some((edge) => edge.from === 'cli' && edge.to === 'config')).toBe(true);
  });

  it('has no cycle of imports between top-level folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of imports) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    expect(findCycle(edges)).toBeUndefined();
  });

  it('lists every top-level folder in the layer order', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => !LAYERS.includes(name))).toEqual([]);
  });

  it('never imports from a folder above its own in the layer order', () => {
    const upward = imports.filter(({ from, to }) => LAYERS.indexOf(to) > LAYERS.indexOf(from)).map(({ file, to }) => `${file} imports ${to}`);
    expect(upward).toEqual([]);
  });
});

/** A folder's modules directly in it, and a module's lines: past these a reader no longer sees it whole. */
const MAX_MODULES_PER_FOLDER = 20;
const MAX_MODULE_LINES = 300;

describe('src sizes', () => {
  const files = sourceFiles(SRC);

  it(`holds at most ${MAX_MODULES_PER_FOLDER} modules directly in any folder`, () => {
    const perFolder = new Map<string, number>();
    for (const file of files) {
      const folder = relative(SRC, dirname(file));
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    expect([...perFolder].filter(([, count]) => count > MAX_MODULES_PER_FOLDER).map(([folder, count]) => `${folder || '.'}: ${count}`)).toEqual([]);
  });

  it(`has no module over ${MAX_MODULE_LINES} lines`, () => {
    const long = files.map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length })).filter(({ lines }) => lines > MAX_MODULE_LINES);
    expect(long.map(({ file, lines }) => `${file}: ${lines}`)).toEqual([]);
  });
});
