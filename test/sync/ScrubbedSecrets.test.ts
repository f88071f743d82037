import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/http/UpstreamError.js';
import { ScrubbedSecrets } from '../../src/sync/ScrubbedSecrets.js';
import { capturingLogger } from '../support/syncFixture.js';

const warningsOf = (lines: string[]) => lines.map((line) => JSON.parse(line) as { level: number; msg: string; secretsScrubbed?: number }).filter((line) => line.level === 40);

describe('ScrubbedSecrets', () => {
  it('warns once with the count summed over pages and failures', () => {
    const { logger, lines } = capturingLogger();
    const scrubbed = new ScrubbedSecrets();
    scrubbed.add(2);
    scrubbed.add(3);
    scrubbed.addFailure(Object.assign(new UpstreamError('auth', 'the API key was refused', { source: 'echo' }), { secretsScrubbed: 4 }));
    scrubbed.warn(logger);
    expect(warningsOf(lines)).toEqual([expect.objectContaining({ secretsScrubbed: 9, msg: expect.stringContaining('echoed a configured secret (9 occurrences)') as unknown })]);
  });

  it('says nothing when nothing was scrubbed', () => {
    const { logger, lines } = capturingLogger();
    const scrubbed = new ScrubbedSecrets();
    scrubbed.addFailure(new Error('not an upstream answer'));
    scrubbed.warn(logger);
    expect(lines).toEqual([]);
  });
});
