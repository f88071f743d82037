import { DrizzleQueryError } from 'drizzle-orm/errors';
import { inspect } from 'node:util';
import { describeConnectionFailure, describeLoginFailure } from './connectionFailure.js';
import { printableText } from './terminalText.js';

/**
 * Prints an error for a person: its message and, when present, the chain of causes. A failed
 * connection is said with the variable that points there; messages may carry upstream text, so
 * they are made printable.
 */
export function reportCliError(error: unknown): void {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const label = lines.length === 0 ? 'error' : 'caused by';
    const connection = describeConnectionFailure(current) ?? describeLoginFailure(current);
    if (connection) {
      // The socket error's own causes add nothing to where and why.
      lines.push(`${label}: ${connection}`);
      break;
    }
    // A failed query's text is SQL and parameters, for no person; its cause says what went wrong.
    const wrapsCause = current instanceof DrizzleQueryError && current.cause !== undefined;
    if (!wrapsCause) lines.push(`${label}: ${current instanceof Error ? current.message : inspect(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  process.stderr.write(`${printableText(lines.join('\n'))}\n`);
}
