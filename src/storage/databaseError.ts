/** The Postgres error inside a driver or Drizzle error, if any: its SQLSTATE code and message. */
export interface DatabaseFailure {
  code: string;
  message: string;
}

export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, message: current.message };
  }
  return undefined;
}

/**
 * Data exceptions (22xxx) and integrity violations (23xxx) fail the same way on every attempt;
 * connection and server-side faults (08xxx, 57xxx, ...) pass.
 */
export function isPermanentDatabaseFailure(failure: DatabaseFailure): boolean {
  return failure.code.startsWith('22') || failure.code.startsWith('23');
}
