/*
 * Command lines the built `feedsync` must end well, one a row: the arguments, whether the reader
 * of its output has gone, and its exit code with a fragment of what it printed (stdout, then
 * stderr). commandOutcomes.system.test.ts runs them.
 */

export interface CommandOutcomeRow {
  what: string;
  args: string[];
  /** Whether stdout is closed before the first line (`feedsync … | head -0`); the command gets a database. */
  closedStdout?: boolean;
  code: number;
  printed: RegExp;
  /** Text it must never print (a crash). */
  never: RegExp;
}

export const commandOutcomeRows: CommandOutcomeRow[] = [
  { what: 'export --help (its default is a BigInt)', args: ['export', '--help'], code: 0, printed: /^Usage: feedsync export[\s\S]*\(default: 0\)/, never: /BigInt/ },
  { what: 'help export', args: ['help', 'export'], code: 0, printed: /^Usage: feedsync export/, never: /BigInt/ },
  { what: 'migrate whose reader has gone (migrate | head -1)', args: ['migrate', '--config', 'feedsync.yaml'], closedStdout: true, code: 0, printed: /^$/, never: /EPIPE/ },
];
