/** Prints an error for a person: its message and, when present, the chain of causes. */
export function reportCliError(error: unknown): void {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    lines.push(current instanceof Error ? `${depth === 0 ? 'error' : 'caused by'}: ${current.message}` : `error: ${JSON.stringify(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}
