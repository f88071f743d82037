import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NamedStatement } from '../../src/storage/database/NamedStatement.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The command that writes the .sql files anew from the code. */
export const WRITE_COMMAND = 'npm run sql:write';

/** A statement's .sql file: where it goes (relative to the repository) and what it holds. */
export interface StatementSqlFile {
  path: string;
  content: string;
}

/** Every `statements/` folder under src/, absolute. */
export function statementFolders(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory()) return [];
    const path = join(dir, entry.name);
    return entry.name === 'statements' ? [path, ...statementFolders(path)] : statementFolders(path);
  });
}

/** The folder a statements/ folder keeps its .sql files in. */
export const sqlFolderOf = (statements: string): string => join(statements, 'sql');

/**
 * The .sql file of every NamedStatement the modules of src/'s statements/ folders export: the
 * statement's text exactly as sent, after a header naming where it is made and its parameters in
 * `$n` order. A statement assembled from fragments can only be reviewed so.
 */
export async function statementSqlFiles(): Promise<StatementSqlFile[]> {
  const files: StatementSqlFile[] = [];
  for (const folder of statementFolders()) {
    for (const entry of readdirSync(folder).filter((name) => name.endsWith('.ts')).sort()) {
      const module = relative(ROOT, join(folder, entry));
      const exports = (await import(pathToFileURL(join(folder, entry)).href)) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(exports)) {
        if (!(value instanceof NamedStatement)) continue;
        const statement = value as NamedStatement<Record<string, unknown>>;
        files.push({ path: relative(ROOT, join(sqlFolderOf(folder), `${statement.name}.sql`)), content: sqlFileContent(statement, exported, module) });
      }
    }
  }
  return files;
}

function sqlFileContent(statement: NamedStatement<Record<string, unknown>>, exported: string, module: string): string {
  const parameters = statement.parameters.length === 0 ? ['-- no parameters'] : statement.parameters.map((name, at) => `--   $${at + 1} :${name}`);
  return [
    `-- ${statement.name}: ${exported} in ${module}`,
    `-- The text as sent, made from the code by \`${WRITE_COMMAND}\`: change the code, not this file.`,
    ...(statement.parameters.length === 0 ? [] : ['-- Parameters:']),
    ...parameters,
    statement.text,
    '',
  ].join('\n');
}
