import { formatPath, type ConfigProblem } from './ConfigError.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed config tree (the default
 * also stands in for an empty variable). A variable unset or empty without a default, and a `${`
 * that is no reference, are reported with the path of the string; never with the string, which
 * may hold a secret.
 */
export function interpolateEnv(tree: unknown, env: NodeJS.ProcessEnv, problems: ConfigProblem[], path: PropertyKey[] = []): unknown {
  if (typeof tree === 'string') {
    const malformed = malformedReference(tree);
    if (malformed) problems.push({ path: formatPath(path), message: malformed });
    return tree.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      problems.push({ path: formatPath(path), message: `environment variable ${name} is ${value === '' ? 'empty' : 'not set'}` });
      return '';
    });
  }
  if (Array.isArray(tree)) return tree.map((item, index) => interpolateEnv(item, env, problems, [...path, index]));
  if (tree !== null && typeof tree === 'object') {
    return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, interpolateEnv(value, env, problems, [...path, key])]));
  }
  return tree;
}

/** Why a `${` left once the references are taken out is none: otherwise it would be used literally. */
function malformedReference(text: string): string | undefined {
  const rest = text.replace(REFERENCE, '');
  const start = rest.indexOf('${');
  if (start < 0) return undefined;
  if (!rest.includes('}', start)) return 'has a "${" that is never closed: write ${NAME} or ${NAME:-default}';
  return 'has a "${…}" that is not a reference: write ${NAME} or ${NAME:-default}, NAME being letters, digits and _, not starting with a digit';
}
