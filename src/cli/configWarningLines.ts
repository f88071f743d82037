import type { ConfigProblem } from '../config/ConfigError.js';

/** Prints a config's warnings (settings that work but are likely a mistake) to stderr, each with its file and path. */
export function printConfigWarnings(file: string, warnings: readonly ConfigProblem[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${file}: ${warning.path}: ${warning.message}\n`);
}
