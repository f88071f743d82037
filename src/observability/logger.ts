import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  '*.*.apiKey',
  'secret',
  '*.secret',
  '*.*.secret',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  '*.authorization',
];

export interface LoggerOptions {
  level?: string;
  /** Pretty, human lines (pino-pretty) instead of JSON; defaults to "stdout is a TTY". */
  pretty?: boolean;
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const base = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } };
  if (options.destination) return pino(base, options.destination);
  const pretty = options.pretty ?? process.stdout.isTTY;
  if (pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  return pino(base);
}
