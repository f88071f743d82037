import pino, { type Logger } from 'pino';
import { REDACTED, type SecretScrubber } from './SecretScrubber.js';

export type { Logger };

/**
 * Paths whose values never reach a log line. pino's redaction has no recursive wildcard, so each
 * secret field is listed at every depth up to four (a whole config object logged by mistake).
 */
const SECRET_FIELDS = ['apiKey', 'secret', 'authorization', 'password'];
const DEPTHS = ['', '*.', '*.*.', '*.*.*.'];
export const REDACTED_PATHS = [...SECRET_FIELDS.flatMap((field) => DEPTHS.map((prefix) => `${prefix}${field}`)), 'headers.authorization', '*.headers.authorization'];

const LEVELS = [...Object.keys(pino.levels.values), 'silent'];

export interface LoggerOptions {
  level?: string;
  /** Pretty, human lines (pino-pretty) instead of JSON; defaults to "stdout is a TTY". */
  pretty?: boolean;
  destination?: pino.DestinationStream;
  /** Removes secret values from every line, whatever field they hide in: the net under field redaction. */
  secrets?: SecretScrubber;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  // pino's own refusal ("unknown level verbose") names no setting.
  if (!LEVELS.includes(level)) throw new Error(`${options.level === undefined ? 'LOG_LEVEL' : 'the log level'} must be one of ${LEVELS.join(', ')}, got "${level}"`);
  const secrets = options.secrets;
  const base = {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    base: { pid: process.pid },
    ...(secrets ? { hooks: { streamWrite: (line: string) => secrets.scrub(line) } } : {}),
  };
  if (options.destination) return pino(base, options.destination);
  const pretty = options.pretty ?? process.stdout.isTTY;
  if (pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  return pino(base);
}
