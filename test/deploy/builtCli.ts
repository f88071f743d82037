import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The built CLI, as the package ships it (`bin` in package.json). */
export const BUILT_CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');

async function modifiedMs(path: string): Promise<number | undefined> {
  return stat(path).then((stats) => stats.mtimeMs, () => undefined);
}

/**
 * Makes sure dist/ is built from the sources as they are: `npm install` builds it (`prepare`), but a
 * source edited since would leave the built CLI behind it, and a check of dist/ would then pass or
 * fail for code that no longer exists. Runs `npm run build` when any source is newer.
 */
export async function ensureBuilt(): Promise<void> {
  const built = await modifiedMs(BUILT_CLI);
  const sources = (await readdir(join(REPO_ROOT, 'src'), { recursive: true })).map((file) => join(REPO_ROOT, 'src', file));
  const inputs = [...sources, join(REPO_ROOT, 'tsconfig.json'), join(REPO_ROOT, 'tsconfig.build.json')];
  const newest = Math.max(...(await Promise.all(inputs.map(modifiedMs))).map((ms) => ms ?? 0));
  if (built !== undefined && built >= newest) return;
  try {
    await run('npm', ['run', 'build'], { cwd: REPO_ROOT, timeout: 180_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}${stderr}`, { cause: error });
  }
}
