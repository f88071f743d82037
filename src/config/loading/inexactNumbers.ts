import { isPair, isScalar, isSeq, visit, type Document } from 'yaml';
import type { ConfigProblem } from '../ConfigError.js';

/** A number literal as YAML writes it in decimal: a sign, digits, a fraction, an exponent. */
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * The plain numbers of a YAML config that a JS number cannot hold as written: more significant
 * digits than a double keeps (an integer past 2^53, a token id, a long fraction), or so large or
 * small that JS writes it back in exponent form. Read, such a number would silently become another
 * text (a param sent, a fan-out value stored); quoted, it is sent as written.
 */
export function inexactNumbers(document: Document): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  visit(document, {
    Scalar(key, node, path) {
      const text = node.source;
      if (typeof node.value !== 'number' || key === 'key' || typeof text !== 'string' || !DECIMAL.test(text)) return;
      const read = String(node.value);
      // Exact but written back in exponent form (1e+21 for 1000000000000000000000): sent so, it would not be the number as written either.
      if (digitsOf(text) === digitsOf(read) && (/[eE]/.test(text) || !read.includes('e'))) return;
      problems.push({ path: locationOf(path, node), message: `the number ${text} cannot be kept as written (it would be read as ${read}); quote it ("${text}") to use it as written` });
    },
  });
  return problems;
}

/** A decimal number's significant digits, without sign, point, exponent or leading and trailing zeros: equal for a literal and the JS number it reads as only if the number is exact. */
function digitsOf(text: string): string {
  return text.replace(/[eE].*$/, '').replace(/[-+.]/g, '').replace(/^0+|0+$/g, '');
}

/** Where a scalar sits, as ConfigError paths are written: `jobs[0].queries[1].params.tokenid`. */
function locationOf(path: readonly unknown[], node: unknown): string {
  const chain = [...path, node];
  let where = '';
  chain.forEach((item, at) => {
    if (isPair(item)) where += `${where ? '.' : ''}${String(isScalar(item.key) ? item.key.value : item.key)}`;
    else if (isSeq(item)) where += `[${item.items.indexOf(chain[at + 1])}]`;
  });
  return where;
}
