import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_CONFIG_FILE, parseConfig, parseTree } from './loadConfig.js';
import { readConfigFile } from './readConfigFile.js';
import { isMapping } from './treeShape.js';
import { jobSchema, type JobConfig } from '../schema.js';
import { workerSchema, type WorkerConfig } from '../worker/workerSchema.js';

/** What the run history shows of a job: its name and schedule. */
export type JobSchedule = Pick<JobConfig, 'name' | 'schedule'>;

/** What commands that only read Postgres and Redis need of a config file. */
export interface ReadOnlySettings {
  /** The worker section: the Redis prefix, the HTTP host. */
  worker: WorkerConfig;
  /** Each job's name and schedule, in config order. */
  jobs: JobSchedule[];
}

const readOnlySchema = z.object({
  worker: workerSchema.prefault({}),
  jobs: z.array(jobSchema.pick({ name: true, schedule: true })).default([]),
});

/**
 * Reads only what `status`, `notices` and `history` need of a config file: the worker section,
 * and each job's name and schedule. The upstreams' settings, and so their variables (API keys,
 * the webhook UUID), are not read, so they need not be set.
 */
export async function loadReadOnlySettings(file: string = DEFAULT_CONFIG_FILE, env: NodeJS.ProcessEnv = process.env): Promise<ReadOnlySettings> {
  const tree = await readConfigFile(resolve(file), file);
  // Not a mapping of sections: the full parse says so as `config check` would.
  if (!isMapping(tree)) return parseConfig(tree, file, env);
  const jobs = Array.isArray(tree.jobs) ? tree.jobs.map((job: unknown) => (isMapping(job) ? { name: job.name, schedule: job.schedule } : job)) : tree.jobs;
  return parseTree(readOnlySchema, { worker: tree.worker, jobs }, file, env);
}
