import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

export interface QueueLimit {
  jobs: number;
  concurrency: number;
  seconds: number;
  jobsPerS: number;
  /** Rate of `addBulk` filling the queue beforehand. */
  addedPerS: number;
}

const QUEUE = 'bench-empty';
const PREFIX = 'feedsync-bench';

/** BullMQ's own ceiling here: `jobs` jobs taken and completed by a worker whose processor does nothing. */
export async function measureQueue(redisUrl: string, jobs: number, concurrency: number): Promise<QueueLimit> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE, { connection, prefix: PREFIX });
  try {
    await queue.obliterate({ force: true });
    const addStarted = performance.now();
    for (let first = 0; first < jobs; first += 1000) {
      const count = Math.min(1000, jobs - first);
      await queue.addBulk(Array.from({ length: count }, (_, index) => ({ name: 'empty', data: { n: first + index }, opts: { removeOnComplete: true } })));
    }
    const addedPerS = jobs / ((performance.now() - addStarted) / 1000);
    let done = 0;
    let allDone!: () => void;
    const finished = new Promise<void>((resolve) => (allDone = resolve));
    const worker = new Worker(QUEUE, () => Promise.resolve(), { connection: workerConnection, prefix: PREFIX, concurrency, autorun: false });
    worker.on('completed', () => {
      if (++done === jobs) allDone();
    });
    const started = performance.now();
    const running = worker.run();
    await finished;
    const seconds = (performance.now() - started) / 1000;
    await worker.close();
    await running;
    return { jobs, concurrency, seconds, jobsPerS: jobs / seconds, addedPerS };
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    connection.disconnect();
    workerConnection.disconnect();
  }
}
