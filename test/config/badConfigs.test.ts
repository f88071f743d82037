import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type ConfigProblem } from '../../src/config/ConfigError.js';
import { loadConfig, parseConfig } from '../../src/config/loading/loadConfig.js';
import { validTree } from '../support/configTrees.js';
import { scratchDir } from '../support/scratchDir.js';
import { badConfigRows as rows, ENV, validYaml, type Row } from './badConfigRows.js';

/** The problems a row's config is refused with. */
async function problemsOf(row: Row): Promise<{ problems: ConfigProblem[]; report: string }> {
  const env = row.env ?? ENV;
  let loading: () => unknown;
  if (row.edit) {
    const tree = validTree();
    row.edit(tree);
    loading = () => parseConfig(tree, 'test.yaml', env);
  } else {
    const file = join(await scratchDir('bad-config'), row.file?.name ?? 'feedsync.yaml');
    if (row.file) await writeFile(file, row.file.bytes);
    await row.make?.(file);
    loading = () => loadConfig(file, env);
  }
  try {
    await loading();
  } catch (error) {
    if (error instanceof ConfigError) return { problems: error.problems, report: error.message };
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('bad configs', () => {
  it('starts from a config that passes, as a tree and as a file', async () => {
    expect(() => parseConfig(validTree(), 'test.yaml', ENV)).not.toThrow();
    const file = join(await scratchDir('bad-config'), 'valid.yaml');
    await writeFile(file, validYaml());
    await expect(loadConfig(file, ENV)).resolves.toBeDefined();
  });

  it('holds at least 60 of them', () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
  });

  it.each(rows)('$what: refused at "$path"', async (row) => {
    const { problems, report } = await problemsOf(row);
    // Every problem is the row's own: a row fails for its reason only.
    const path: unknown = typeof row.path === 'string' ? row.path : expect.stringMatching(row.path);
    expect(problems.map((problem) => problem.path)).toEqual(problems.map(() => path));
    expect(problems.map((problem) => problem.message)).toContainEqual(expect.stringMatching(row.message));
    if (row.secret) expect(report).not.toContain(row.secret);
  });
});
