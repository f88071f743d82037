import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT, sqlFolderOf, statementFolders, statementSqlFiles } from './statementSql.js';

/** Writes every statement's .sql file anew (see statementSqlFiles) and removes those of statements gone or renamed. */
const files = await statementSqlFiles();
const wanted = new Set(files.map((file) => file.path));
for (const folder of statementFolders().map(sqlFolderOf).filter((folder) => existsSync(folder))) {
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.sql'))) {
    const path = relative(ROOT, join(folder, name));
    if (!wanted.has(path)) rmSync(join(ROOT, path));
  }
}
for (const file of files) {
  mkdirSync(dirname(join(ROOT, file.path)), { recursive: true });
  writeFileSync(join(ROOT, file.path), file.content);
}
process.stdout.write(`wrote ${files.length} statements' .sql files\n`);
