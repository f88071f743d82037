import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loadConfig.js';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger.js';
import { configuredSecrets, connectionSecrets, SecretScrubber } from '../../src/observability/SecretScrubber.js';

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

  it('finds a secret escaped character by character in text shown, decoding its escapes', () => {
    const escaped = [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(new SecretScrubber([KEY]).scrubShown(`{"error":"bad key ${escaped}"}`)).toBe('{"error":"bad key [redacted]"}');
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

  it('collects the passwords of the database and Redis URLs, as given and decoded, and the dashboard password', () => {
    const secrets = connectionSecrets(['postgres://feedsync:pg%2Fpass-0123@db:5432/feedsync', 'redis://:redis-pass-4567@redis:6379', undefined, 'not a url'], 'dash-pass-89ab');
    expect(secrets).toEqual(['pg%2Fpass-0123', 'pg/pass-0123', 'redis-pass-4567', 'redis-pass-4567', 'dash-pass-89ab']);
  });

  it('keeps a Redis password a refused AUTH quotes back out of a log line', () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void lines.push(chunk.toString())) });
    const logger = createLogger({ destination, secrets: new SecretScrubber(connectionSecrets(['redis://:redis-pass-4567@redis:6379'], undefined)) });
    // What ioredis attaches to the error of a failed AUTH.
    logger.error({ err: Object.assign(new Error('WRONGPASS invalid username-password pair'), { command: { name: 'auth', args: ['redis-pass-4567'] } }) }, 'sync worker error');
    expect(lines.join('')).toContain('WRONGPASS');
    expect(lines.join('')).not.toContain('redis-pass-4567');
  });
});
