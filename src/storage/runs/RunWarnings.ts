import type pg from 'pg';
import { addRunWarning } from './statements/addRunWarning.js';

/**
 * What an upstream said beside data it sent, kept on the run (`sync_runs.warnings`) for its
 * history page and its notice: Etherscan's "OK-Missing/Invalid API Key, rate limit of 1/5sec
 * applied" sends the data, throttled. The run still gets everything; each warning is kept once.
 */
export class RunWarnings {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  async add(runId: string, warning: string): Promise<void> {
    await this.pool.query(addRunWarning.with({ runId, warning }));
  }
}
