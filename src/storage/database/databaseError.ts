/** The Postgres error inside a driver or Drizzle error, if any: its SQLSTATE code and message, and the constraint it names. */
export interface DatabaseFailure {
  code: string;
  message: string;
  constraint?: string;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** An error and its causes, outermost first: drivers and Drizzle wrap the error that says what happened. */
export function* causesOf(error: unknown): Generator<Error & { code?: unknown; constraint?: unknown }> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) yield current;
}

export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  for (const cause of causesOf(error)) {
    if (typeof cause.code === 'string' && /^[0-9A-Z]{5}$/.test(cause.code)) {
      return { code: cause.code, message: cause.message, ...(typeof cause.constraint === 'string' ? { constraint: cause.constraint } : {}) };
    }
  }
  return undefined;
}

/** Whether `error` is a violation of `constraint` (or of one whose name matches it) with SQLSTATE `code`. */
export function isViolationOf(error: unknown, code: string, constraint: string | RegExp): boolean {
  const failure = databaseFailureOf(error);
  if (failure?.code !== code || failure.constraint === undefined) return false;
  return typeof constraint === 'string' ? failure.constraint === constraint : constraint.test(failure.constraint);
}

/**
 * Data exceptions (22xxx) and integrity violations (23xxx) fail the same way on every attempt;
 * connection and server-side faults (08xxx, 57xxx, ...) pass.
 */
export function isPermanentDatabaseFailure(failure: DatabaseFailure): boolean {
  return failure.code.startsWith('22') || failure.code.startsWith('23');
}
