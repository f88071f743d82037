import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

describe('createLogger', () => {
  it('redacts authorization headers, API keys and secrets wherever they sit', () => {
    const { logger, lines } = capture();
    logger.info({ headers: { authorization: 'Bearer k-1' }, source: { apiKey: 'k-2' }, config: { sources: { music: { apiKey: 'k-3' } } }, webhook: { secret: 'whsec_k4' } }, 'x');
    const line = lines.join('');
    for (const secret of ['k-1', 'k-2', 'k-3', 'whsec_k4']) expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ headers: { authorization: '***' }, source: { apiKey: '***' } });
  });

  it('writes one JSON object per line', () => {
    const { logger, lines } = capture();
    logger.info({ runId: 'r1' }, 'hello');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, runId: 'r1', msg: 'hello' });
  });
});
