import { formatPath, type ConfigProblem } from './ConfigError.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed config tree. Unset
 * variables without a default are reported with the path of the string that needs them.
 */
export function interpolateEnv(tree: unknown, env: NodeJS.ProcessEnv, problems: ConfigProblem[], path: PropertyKey[] = []): unknown {
  if (typeof tree === 'string') {
    return tree.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      problems.push({ path: formatPath(path), message: `environment variable ${name} is not set` });
      return '';
    });
  }
  if (Array.isArray(tree)) return tree.map((item, index) => interpolateEnv(item, env, problems, [...path, index]));
  if (tree !== null && typeof tree === 'object') {
    return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, interpolateEnv(value, env, problems, [...path, key])]));
  }
  return tree;
}
