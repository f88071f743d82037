import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../src/notices/signNotice.js';

const secret = `whsec_${Buffer.from('a test secret of enough length!!').toString('base64')}`;

describe('webhookHeaders', () => {
  it('produces a signature the standardwebhooks package verifies', () => {
    const body = JSON.stringify({ type: 'sync.succeeded', data: { runId: 'r1' } });
    const headers = webhookHeaders('msg_1', body, secret);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fails verification when the body differs from the bytes signed', () => {
    const headers = webhookHeaders('msg_1', '{"a":1}', secret);
    expect(() => new Webhook(secret).verify('{"a": 1}', headers)).toThrow();
  });

  it('sends no signature without a secret', () => {
    expect(webhookHeaders('msg_1', '{}', undefined)).not.toHaveProperty('webhook-signature');
  });
});
