import { ensureLocalStack } from '../../src/localstack/localStack.js';
import { migrateDatabase } from '../../src/storage/database/database.js';
import { startSimulatorProcess, type SimulatorUrls } from './simulatorProcess.js';

/** What a bench mode measures against: Redis, a migrated Postgres, and the simulator in a process of its own. */
export interface BenchStack {
  sim: SimulatorUrls;
  redisUrl: string;
  databaseUrl: string;
  /** What every measured run shares (see measureRuns). */
  servers: { webhookBaseUrl: string; simulatorPid: number; redisUrl: string; databaseUrl: string };
}

/** Starts Redis, Postgres (or takes REDIS_URL / DATABASE_URL) and the simulator, runs `measure` on them, then stops what it started. */
export async function withBenchStack<T>(measure: (stack: BenchStack) => Promise<T>): Promise<T> {
  const stack = await ensureLocalStack();
  const simulator = await startSimulatorProcess();
  try {
    const sim = simulator.urls;
    const { redisUrl, databaseUrl } = stack;
    await migrateDatabase(databaseUrl);
    return await measure({ sim, redisUrl, databaseUrl, servers: { webhookBaseUrl: sim.webhookBaseUrl, simulatorPid: simulator.pid, redisUrl, databaseUrl } });
  } finally {
    await simulator.stop();
    await stack.stop();
  }
}
