import { describe, expect, it } from 'vitest';
import { LostJobs } from '../../src/jobs/LostJobs.js';
import { capturingLogger } from '../support/syncFixture.js';

const warnings = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: number; runKey?: string }).filter((line) => line.level === 40);

describe('LostJobs', () => {
  it("warns once about a job whose lock BullMQ cannot renew again and again, and whose key is missing as its run ends", () => {
    const { logger, lines } = capturingLogger();
    const lost = new LostJobs(logger);
    const errors = ['could not renew lock for job q/a/0/x', 'could not renew lock for job q/a/0/x', 'Missing key for job q/a/0/x. moveToFinished'];
    expect(errors.map((message) => lost.handled(new Error(message)))).toEqual([true, true, true]);
    expect(warnings(lines).map((line) => line.runKey)).toEqual(['q/a/0/x']);
  });

  it('warns again about a job lost again after it was taken up again', () => {
    const { logger, lines } = capturingLogger();
    const lost = new LostJobs(logger);
    lost.handled(new Error('could not renew lock for job q/a/0/x'));
    lost.takenUp('q/a/0/x');
    lost.handled(new Error('Missing lock for job q/a/0/x. moveToFinished'));
    expect(warnings(lines)).toHaveLength(2);
  });

  it('tells apart jobs whose run keys differ only after a dot (a fan-out value such as a domain)', () => {
    const { logger, lines } = capturingLogger();
    const lost = new LostJobs(logger);
    for (const id of ['tick/sites/0/1/example.com', 'tick/sites/0/1/example.org']) {
      lost.handled(new Error(`could not renew lock for job ${id}`));
      lost.handled(new Error(`Missing key for job ${id}. moveToFinished`));
    }
    expect(warnings(lines).map((line) => line.runKey)).toEqual(['tick/sites/0/1/example.com', 'tick/sites/0/1/example.org']);
  });

  it('leaves any other worker error to its caller', () => {
    const { logger, lines } = capturingLogger();
    expect(new LostJobs(logger).handled(new Error('Connection is closed.'))).toBe(false);
    expect(lines).toEqual([]);
  });
});
