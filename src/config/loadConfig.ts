import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ConfigError, formatPath, type ConfigProblem } from './ConfigError.js';
import { withEnvironmentDefaults } from './environmentDefaults.js';
import { interpolateEnv } from './interpolateEnv.js';
import { configSchema, type Config, type ConfigInput } from './schema.js';

export const DEFAULT_CONFIG_FILE = 'feedsync.yaml';

/** Typed identity for `feedsync.config.ts` files. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}

/** Validates an already-read config tree; throws a ConfigError listing every problem. */
export function parseConfig(tree: unknown, file: string, env: NodeJS.ProcessEnv = process.env): Config {
  const problems: ConfigProblem[] = [];
  const interpolated = interpolateEnv(tree, env, problems);
  const result = configSchema.safeParse(withEnvironmentDefaults(interpolated, env));
  if (!result.success) {
    for (const issue of result.error.issues) problems.push({ path: formatPath(issue.path), message: issue.message });
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(file, problems);
  return result.data;
}

/** Node 20 cannot import TypeScript itself; tsx, loaded only for such a config, compiles it on the fly. */
async function importTypeScript(url: string): Promise<unknown> {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(url, import.meta.url);
}

async function readTree(path: string): Promise<unknown> {
  const extension = extname(path);
  if (['.ts', '.mts', '.js', '.mjs'].includes(extension)) {
    const url = pathToFileURL(path).href;
    const module = (extension.endsWith('ts') ? await importTypeScript(url) : await import(url)) as { default?: unknown };
    // A .ts file outside an ESM package loads as CommonJS, whose exports sit one level deeper.
    const inner = module.default as { default?: unknown } | undefined;
    if (inner !== null && typeof inner === 'object' && 'default' in inner && Object.keys(inner).length === 1) return inner.default;
    if (module.default === undefined) throw new ConfigError(path, [{ path: '', message: 'the module has no default export (use `export default defineConfig({...})`)' }]);
    return module.default;
  }
  const text = await readFile(path, 'utf8');
  try {
    return parseYaml(text, { prettyErrors: true });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [0, 0];
      throw new ConfigError(path, [{ path: `line ${line}:${col}`, message: error.message.split('\n')[0] ?? error.message }], { cause: error });
    }
    throw error;
  }
}

/** Reads, interpolates and validates a YAML or TypeScript config file. */
export async function loadConfig(file: string = DEFAULT_CONFIG_FILE, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const path = resolve(file);
  let tree: unknown;
  try {
    tree = await readTree(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError(file, [{ path: '', message }], { cause: error });
  }
  return parseConfig(tree, file, env);
}
