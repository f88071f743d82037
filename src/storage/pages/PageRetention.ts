import type pg from 'pg';
import { INT32_MAX } from '../../config/bounds.js';
import type { EnvelopeRetention } from '../../config/jobs/retentionSchema.js';
import type { Config, JobConfig } from '../../config/schema.js';
import { FOREIGN_KEY_VIOLATION, isViolationOf } from '../database/databaseError.js';
import { countOrphanBodies } from './statements/countOrphanBodies.js';
import { countPrunable } from './statements/countPrunable.js';
import { deleteOrphanBodies } from './statements/deleteOrphanBodies.js';
import { deletePrunableEnvelopes } from './statements/deletePrunableEnvelopes.js';
import { ENVELOPE_BODY_KEY } from './statements/pageWriteParts.js';

/** What pruning removed, or would remove. */
export interface PruneResult {
  /** Per job whose policy let anything go: its runs, and their envelopes. */
  jobs: { job: string; runs?: number; envelopes: number }[];
  envelopes: number;
  /** Bodies no envelope referred to any more, and their bytes: the space given back. */
  bodies: number;
  bytes: number;
}

/** Runs whose envelopes one statement deletes: short transactions, whatever the backlog. */
const RUNS_PER_BATCH = 20;
/** Bodies looked at per statement of the orphan sweep. */
const BODIES_PER_BATCH = 1000;

/** A job's retention of stored pages: its own settings over its source's. */
export function envelopeRetentionOf(config: Config, job: JobConfig): EnvelopeRetention {
  return { ...config.sources[job.source]?.retention?.envelopes, ...job.retention?.envelopes };
}

/**
 * Applies each job's retention policy to its stored pages (`feedsync prune`, and daily in the
 * scheduler): deletes the envelopes of the succeeded runs it lets go, a few runs per statement,
 * then the bodies no envelope refers to any more. A body that a kept run's envelope refers to is
 * never deleted (the foreign key guarantees it even against a sync storing the same page meanwhile).
 */
export class PageRetention {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /** What `prune` would remove now, removing nothing. */
  async plan(config: Config): Promise<PruneResult> {
    const result: PruneResult = { jobs: [], envelopes: 0, bodies: 0, bytes: 0 };
    for (const job of config.jobs) {
      const policy = envelopeRetentionOf(config, job);
      if (policy.maxAgeDays === undefined && policy.keepLastRuns === undefined) continue;
      const { rows } = await this.pool.query<{ runs: number; envelopes: number; bodies: number; bytes: string }>(countPrunable.with(this.params(job, policy, INT32_MAX)));
      const row = rows[0]!;
      if (row.envelopes > 0) result.jobs.push({ job: job.name, runs: row.runs, envelopes: row.envelopes });
      result.envelopes += row.envelopes;
      // A body shared by two jobs' pruned runs is counted by each: an upper bound, said so where printed.
      result.bodies += row.bodies;
      result.bytes += Number(row.bytes);
    }
    // Orphans already: prune's sweep deletes them too.
    const orphans = (await this.pool.query<{ bodies: number; bytes: string }>(countOrphanBodies.with({}))).rows[0]!;
    result.bodies += orphans.bodies;
    result.bytes += Number(orphans.bytes);
    return result;
  }

  async prune(config: Config): Promise<PruneResult> {
    const result: PruneResult = { jobs: [], envelopes: 0, bodies: 0, bytes: 0 };
    for (const job of config.jobs) {
      const policy = envelopeRetentionOf(config, job);
      if (policy.maxAgeDays === undefined && policy.keepLastRuns === undefined) continue;
      let envelopes = 0;
      for (;;) {
        const { rows } = await this.pool.query<{ envelopes: number }>(deletePrunableEnvelopes.with(this.params(job, policy, RUNS_PER_BATCH)));
        if (rows[0]!.envelopes === 0) break;
        envelopes += rows[0]!.envelopes;
      }
      if (envelopes > 0) result.jobs.push({ job: job.name, envelopes });
      result.envelopes += envelopes;
    }
    const orphans = await this.deleteOrphanBodies();
    return { ...result, ...orphans };
  }

  /** Deletes every body no envelope refers to, in hash order, a batch per statement. */
  async deleteOrphanBodies(): Promise<{ bodies: number; bytes: number }> {
    let after = '';
    let bodies = 0;
    let bytes = 0;
    for (;;) {
      let row: { last: string | null; bodies: number; bytes: string };
      try {
        row = (await this.pool.query<{ last: string | null; bodies: number; bytes: string }>(deleteOrphanBodies.with({ after, limit: BODIES_PER_BATCH }))).rows[0]!;
      } catch (error) {
        // A sync came to refer to one of the batch's bodies as it went: the batch is looked at again
        // (the other side of the race PageWrites.send meets).
        if (isViolationOf(error, FOREIGN_KEY_VIOLATION, ENVELOPE_BODY_KEY)) continue;
        throw error;
      }
      if (row.last === null) return { bodies, bytes };
      bodies += row.bodies;
      bytes += Number(row.bytes);
      after = row.last;
    }
  }

  private params(job: JobConfig, policy: EnvelopeRetention, runs: number) {
    return { job: job.name, maxAgeDays: policy.maxAgeDays ?? null, keepLastRuns: policy.keepLastRuns ?? null, runs };
  }
}
