import { formatPath, type ConfigProblem } from '../ConfigError.js';

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const NEVER_CLOSED = 'has a "${" that is never closed: write ${NAME} or ${NAME:-default}';
const NOT_A_REFERENCE = 'has a "${…}" that is not a reference: write ${NAME} or ${NAME:-default}, NAME being letters, digits and _, not starting with a digit';

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed config tree (the default
 * also stands in for an empty variable, and may hold references itself: `${A:-${B}}`). A variable
 * unset or empty without a default, and a `${` that is no reference, are reported with the path of
 * the string; never with the string, which may hold a secret.
 */
export function interpolateEnv(tree: unknown, env: NodeJS.ProcessEnv, problems: ConfigProblem[], path: PropertyKey[] = []): unknown {
  if (typeof tree === 'string') {
    const expanded = expand(tree, 0, env, false);
    for (const message of expanded.problems) problems.push({ path: formatPath(path), message });
    return expanded.value;
  }
  if (Array.isArray(tree)) return tree.map((item, index) => interpolateEnv(item, env, problems, [...path, index]));
  if (tree !== null && typeof tree === 'object') {
    return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, interpolateEnv(value, env, problems, [...path, key])]));
  }
  return tree;
}

interface Expansion {
  value: string;
  /** Where it stopped: the end of the text, or (nested) the `}` that closes the default. */
  end: number;
  problems: string[];
  /** Whether it stopped at a `}`; a default that does not is never closed. */
  closed: boolean;
}

/** Expands the references in `text` from `start`; `nested`, it is a default and stops at its closing `}`. */
function expand(text: string, start: number, env: NodeJS.ProcessEnv, nested: boolean): Expansion {
  let value = '';
  const problems: string[] = [];
  let index = start;
  while (index < text.length) {
    if (nested && text[index] === '}') return { value, end: index, problems, closed: true };
    if (!text.startsWith('${', index)) {
      value += text[index++];
      continue;
    }
    NAME.lastIndex = index + 2;
    const name = NAME.exec(text)?.[0];
    const after = index + 2 + (name?.length ?? 0);
    if (name === undefined || (text[after] !== '}' && !text.startsWith(':-', after))) {
      // The rest cannot be read reliably: one problem for the string is enough.
      problems.push(text.includes('}', index) ? NOT_A_REFERENCE : NEVER_CLOSED);
      return { value, end: text.length, problems, closed: false };
    }
    const fallback = text[after] === '}' ? undefined : expand(text, after + 2, env, true);
    if (fallback && !fallback.closed) {
      problems.push(...(fallback.problems.length > 0 ? fallback.problems : [NEVER_CLOSED]));
      return { value, end: text.length, problems, closed: false };
    }
    const set = env[name];
    if (set !== undefined && set !== '') value += set;
    else if (fallback) {
      value += fallback.value;
      problems.push(...fallback.problems);
    } else problems.push(`environment variable ${name} is ${set === '' ? 'empty' : 'not set'}`);
    index = fallback ? fallback.end + 1 : after + 1;
  }
  return { value, end: index, problems, closed: !nested };
}
