import { resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError, formatPath, type ConfigProblem } from '../ConfigError.js';
import { withEnvironmentDefaults } from './environmentDefaults.js';
import { interpolateEnv } from './interpolateEnv.js';
import { readConfigFile } from './readConfigFile.js';
import { configSchema, type Config, type ConfigInput } from '../schema.js';
import { treeShapeProblem } from './treeShape.js';

export const DEFAULT_CONFIG_FILE = 'feedsync.yaml';

/** Typed identity for `feedsync.config.ts` files. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}

/** Validates an already-read config tree; throws a ConfigError listing every problem. */
export function parseConfig(tree: unknown, file: string, env: NodeJS.ProcessEnv = process.env): Config {
  return parseTree(configSchema, tree, file, env);
}

/** Validates a config tree, or some of its sections, against a schema; throws a ConfigError listing every problem. */
export function parseTree<Schema extends z.ZodType>(schema: Schema, tree: unknown, file: string, env: NodeJS.ProcessEnv): z.output<Schema> {
  // Interpolation and validation walk the tree recursively: a cycle would overflow the stack.
  const shapeProblem = treeShapeProblem(tree);
  if (shapeProblem) throw new ConfigError(file, [shapeProblem]);
  const problems: ConfigProblem[] = [];
  const interpolated = interpolateEnv(tree, env, problems);
  const result = schema.safeParse(withEnvironmentDefaults(interpolated, env));
  if (!result.success) {
    // An unset variable is reported once: not again as the empty value it left behind.
    const unset = new Set(problems.map((problem) => problem.path));
    problems.push(...result.error.issues.flatMap(problemsOf).filter((problem) => !unset.has(problem.path)));
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(file, problems);
  return result.data;
}

function problemsOf(issue: z.core.$ZodIssue): ConfigProblem[] {
  const path = formatPath(issue.path);
  // A record key that fails (a source name) keeps its reason among nested issues, under "Invalid key in record".
  if (issue.code === 'invalid_key') return issue.issues.map((inner) => ({ path, message: inner.message }));
  return [{ path, message: issue.message }];
}

/** Reads, interpolates and validates a YAML or TypeScript config file. */
export async function loadConfig(file: string = DEFAULT_CONFIG_FILE, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  return parseConfig(await readConfigFile(resolve(file), file), file, env);
}
