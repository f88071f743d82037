import { BullMQOtel } from 'bullmq-otel';
import { tracingAsked } from './tracingEnv.js';

/**
 * BullMQ's telemetry for the sync queue and its workers while tracing is asked for: a queued run
 * carries its tick's trace context in the job, so the run's spans continue the tick's trace
 * across the queue. Off, undefined: jobs carry nothing more.
 */
export function queueTelemetry(): BullMQOtel | undefined {
  return tracingAsked() ? new BullMQOtel({ tracerName: 'feedsync.bullmq' }) : undefined;
}
