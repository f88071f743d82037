import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storePageInsertingRecords, storePageLookingUpUnchanged, storePageUpsertingRecords } from '../src/storage/pages/statements/storePage.js';
import { storeProvenPage } from '../src/storage/pages/statements/storeProvenPage.js';
import { storeUnchangedPage } from '../src/storage/pages/statements/storeUnchangedPage.js';
import { ROOT, sqlFolderOf, statementFolders, statementSqlFiles, WRITE_COMMAND } from './support/statementSql.js';

/** The committed .sql files let a review see each statement as sent (the page statements are assembled from fragments); they must be what the code makes. */
describe("statements' .sql files", async () => {
  const files = await statementSqlFiles();
  const fix = `the .sql files differ from the statements the code assembles: run \`${WRITE_COMMAND}\` and commit what it writes`;

  it('covers every statement that stores a page', () => {
    const paths = new Set(files.map((file) => file.path));
    for (const statement of [storePageLookingUpUnchanged, storePageUpsertingRecords, storePageInsertingRecords, storeUnchangedPage, storeProvenPage]) {
      expect(paths).toContain(`src/storage/pages/statements/sql/${statement.name}.sql`);
    }
  });

  it('gives each statement a name of its own: a connection prepares a name once', () => {
    const names = files.map((file) => file.path.replace(/^.*\//, ''));
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
  });

  it('holds each statement as the code assembles it', () => {
    const differing = files.filter((file) => !existsSync(join(ROOT, file.path)) || readFileSync(join(ROOT, file.path), 'utf8') !== file.content).map((file) => file.path);
    expect(differing, fix).toEqual([]);
  });

  it('holds no file of a statement gone or renamed', () => {
    const wanted = new Set(files.map((file) => file.path));
    const committed = statementFolders()
      .map(sqlFolderOf)
      .filter((folder) => existsSync(folder))
      .flatMap((folder) => readdirSync(folder).map((name) => relative(ROOT, join(folder, name))));
    expect(
      committed.filter((path) => !wanted.has(path)),
      fix,
    ).toEqual([]);
  });
});
