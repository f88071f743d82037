import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { configuredSecrets, SecretScrubber } from '../../src/observability/SecretScrubber.js';

const KEY = 'sk-live-a1b2c3d4e5f6';

describe('SecretScrubber', () => {
  it('replaces a secret as given', () => {
    expect(new SecretScrubber([KEY]).scrub(`Invalid API key: Bearer ${KEY}.`)).toBe('Invalid API key: Bearer [redacted].');
  });

  it('replaces its base64, URL-encoded and JSON-escaped forms', () => {
    const key = 'k3y/with+"odd"&chars';
    const text = [Buffer.from(key).toString('base64'), encodeURIComponent(key), JSON.stringify(key).slice(1, -1)].join(' ');
    expect(new SecretScrubber([key]).scrub(text)).toBe('[redacted] [redacted] [redacted]');
  });

  it('replaces its form with every slash escaped, as PHP writes JSON', () => {
    expect(new SecretScrubber(['key/with/slashes']).scrub('{"echo":"key\\/with\\/slashes"}')).toBe('{"echo":"[redacted]"}');
  });

  it('replaces the bytes of a webhook secret as well as the secret', () => {
    const bytes = Buffer.from('twenty-four bytes or more, really').toString('base64');
    expect(new SecretScrubber([`whsec_${bytes}`]).scrub(`whsec_${bytes} ${bytes}`)).toBe('[redacted] [redacted]');
  });

  it('leaves alone a secret too short to be told from ordinary text', () => {
    expect(new SecretScrubber(['abc']).scrub('abcdef')).toBe('abcdef');
  });

  it('returns text without a secret unchanged', () => {
    const text = 'nothing to see';
    expect(new SecretScrubber([KEY]).scrub(text)).toBe(text);
  });

  it('collects each source key and the webhook secret of a config', () => {
    const secret = `whsec_${Buffer.from('a signing secret of 24+ bytes!').toString('base64')}`;
    const config = parseConfig(
      {
        sources: { music: { baseUrl: 'http://127.0.0.1:1', apiKey: KEY, path: '/' }, explorer: { baseUrl: 'http://127.0.0.1:2', apiKey: 'explorer-key-0001', path: '/' } },
        jobs: [{ name: 'a', source: 'music', records: { path: 'x', kind: 'k' }, queries: [{ q: 'a' }] }],
        webhook: { baseUrl: 'http://127.0.0.1:3', uuid: '3f0c8a4e-6d3b-4a8e-9b1e-2a7c5d9e0f11', secret },
      },
      'test',
      {},
    );
    expect(configuredSecrets(config).sort()).toEqual([KEY, 'explorer-key-0001', secret].sort());
  });
});
