import { QueueEvents } from 'bullmq';
import { SYNC_QUEUE } from '../../src/jobs/queues.js';
import { openRedis } from '../../src/redis/openRedis.js';

/** The sync queue's adds as BullMQ reports them, job ids in order of arrival. */
export interface SyncQueueAdds {
  /** Jobs created. */
  added: string[];
  /** Adds turned away because a job with that id already existed. */
  duplicated: string[];
  close(): Promise<void>;
}

/** Watches the 'added' and 'duplicated' events of the sync queue under `prefix`, from its first event on. */
export async function watchSyncQueueAdds(redisUrl: string, prefix: string): Promise<SyncQueueAdds> {
  const connection = openRedis(redisUrl, 'worker');
  const events = new QueueEvents(SYNC_QUEUE, { connection, prefix, lastEventId: '0' });
  const adds: SyncQueueAdds = {
    added: [],
    duplicated: [],
    async close() {
      await events.close();
      connection.disconnect();
    },
  };
  events.on('added', ({ jobId }) => adds.added.push(jobId));
  events.on('duplicated', ({ jobId }) => adds.duplicated.push(jobId));
  await events.waitUntilReady();
  return adds;
}
