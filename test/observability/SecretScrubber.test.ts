import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger.js';
import { configuredSecrets, connectionSecrets, SecretScrubber } from '../../src/observability/SecretScrubber.js';

const KEY = 'sk-live-a1b2c3d4e5f6';
const escapedByChar = (text: string) => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Each run of 8 characters inside the key's base64 (and base64url) at byte offset `offset`, but for the groups it shares with its neighbours. */
function base64Windows(key: string, offset: number): string[] {
  return (['base64', 'base64url'] as const).flatMap((encoding) => {
    const inner = Buffer.from(`${'x'.repeat(offset)}${key}`).toString(encoding).slice(8, -8);
    return Array.from({ length: inner.length - 7 }, (_, at) => inner.slice(at, at + 8));
  });
}

describe('SecretScrubber', () => {
  it('replaces a secret as given', () => {
    expect(new SecretScrubber([KEY]).scrub(`Invalid API key: Bearer ${KEY}.`)).toBe('Invalid API key: Bearer ***.');
  });

  it('replaces its base64, URL-encoded and JSON-escaped forms', () => {
    const key = 'k3y/with+"odd"&chars';
    const text = [Buffer.from(key).toString('base64'), encodeURIComponent(key), JSON.stringify(key).slice(1, -1)].join(' ');
    expect(new SecretScrubber([key]).scrub(text)).toBe('*** *** ***');
  });

  it('replaces its form with every slash escaped, as PHP writes JSON', () => {
    expect(new SecretScrubber(['key/with/slashes']).scrub('{"echo":"key\\/with\\/slashes"}')).toBe('{"echo":"***"}');
  });

  it('replaces the bytes of a webhook secret as well as the secret', () => {
    const bytes = Buffer.from('twenty-four bytes or more, really').toString('base64');
    expect(new SecretScrubber([`whsec_${bytes}`]).scrub(`whsec_${bytes} ${bytes}`)).toBe('*** ***');
  });

  it('finds a secret escaped character by character in text shown, decoding its escapes', () => {
    expect(new SecretScrubber([KEY]).scrubShown(`{"error":"bad key ${escapedByChar(KEY)}"}`)).toBe('{"error":"bad key ***"}');
  });

  it.each([0, 1, 2])('replaces the key inside base64 of a longer text, the key at byte offset %i of a group', (offset) => {
    const encoded = Buffer.from(`${'p'.repeat(offset)}Invalid: Bearer ${KEY} was refused`).toString('base64');
    const scrubbed = new SecretScrubber([KEY]).scrub(encoded);
    expect(scrubbed).toContain('***');
    for (const at of [0, 1, 2]) for (const window of base64Windows(KEY, at)) expect(scrubbed).not.toContain(window);
  });

  it('replaces the key inside base64url without padding', () => {
    const encoded = Buffer.from(`token=${KEY}?&`).toString('base64url');
    const scrubbed = new SecretScrubber([KEY]).scrub(encoded);
    expect(scrubbed).toContain('***');
    for (const at of [0, 1, 2]) for (const window of base64Windows(KEY, at)) expect(scrubbed).not.toContain(window);
  });

  it('replaces its hex, lower and upper case', () => {
    const hex = Buffer.from(KEY).toString('hex');
    expect(new SecretScrubber([KEY]).scrub(`${hex} ${hex.toUpperCase()}`)).toBe('*** ***');
  });

  it('replaces it with every byte %-encoded, in upper and lower case hex', () => {
    const everyByte = Buffer.from(KEY).toString('hex').replace(/../g, '%$&');
    expect(new SecretScrubber([KEY]).scrub(`?k=${everyByte}&K=${everyByte.toUpperCase()}`)).toBe('?k=***&K=***');
  });

  it('replaces it form-encoded, a space as +', () => {
    const key = "pass word's (key)";
    expect(new SecretScrubber([key]).scrub(`Location: /login?password=${new URLSearchParams({ p: key }).toString().slice(2)}`)).toBe('Location: /login?password=***');
  });

  it('counts each occurrence it replaces', () => {
    const tally = { replaced: 0 };
    new SecretScrubber([KEY]).scrub(`${KEY} ${KEY} ${Buffer.from(KEY).toString('hex')}`, tally);
    expect(tally.replaced).toBe(3);
  });

  it('writes again, without the key, a JSON string whose \\u escapes spell it, and leaves the rest of the text as received', () => {
    const tally = { replaced: 0 };
    const body = `{"data":[{"id":1,"name":"Caf\\u00e9"},{"id":2,"seen":"by ${escapedByChar(KEY)}"}],"n":12345678901234567890}`;
    const scrubbed = new SecretScrubber([KEY]).scrubJson(body, tally);
    expect(scrubbed).toBe('{"data":[{"id":1,"name":"Caf\\u00e9"},{"id":2,"seen":"by ***"}],"n":12345678901234567890}');
    expect(tally.replaced).toBe(1);
  });

  it('returns a JSON text whose \\u escapes spell no secret as the same string', () => {
    const body = '{"name":"Caf\\u00e9 \\u2603"}';
    expect(new SecretScrubber([KEY]).scrubJson(body)).toBe(body);
  });

  it('leaves alone a secret too short to be told from ordinary text', () => {
    expect(new SecretScrubber(['abc']).scrub('abcdef')).toBe('abcdef');
  });

  it('returns text without a secret unchanged', () => {
    const text = 'nothing to see';
    expect(new SecretScrubber([KEY]).scrub(text)).toBe(text);
  });

  it('collects the value of a credential put in params as a secret', () => {
    const config = parseConfig(
      {
        sources: { music: { baseUrl: 'http://127.0.0.1:1', auth: { type: 'none' }, path: '/', params: { API_KEY: 'source-param-key-01', format: 'json' } } },
        jobs: [{ name: 'a', source: 'music', records: { path: 'x', kind: 'k' }, params: { token: 'job-param-token-02' }, queries: [{ q: 'a', params: { signature: 'query-param-sig-03' } }] }],
      },
      'test',
      {},
    );
    expect(configuredSecrets(config).sort()).toEqual(['job-param-token-02', 'query-param-sig-03', 'source-param-key-01']);
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
