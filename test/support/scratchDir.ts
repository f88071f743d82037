import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';

/** A fresh directory under the test run's scratch root, which the global teardown removes. */
export function scratchDir(prefix: string): Promise<string> {
  return mkdtemp(join(inject('scratchRoot'), `${prefix}-`));
}
