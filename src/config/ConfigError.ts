/** One problem in a config file, located by its path, e.g. `jobs[2].schedule.cron`. */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** A config that cannot be used; lists every problem at once. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n')}`, options);
  }
}

/** Formats a path the way a reader finds it in YAML: `jobs[2].schedule.cron`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}
