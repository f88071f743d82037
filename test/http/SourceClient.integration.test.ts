import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceSchema } from '../../src/config/schema.js';
import { SourceClient } from '../../src/http/SourceClient.js';
import { SecretScrubber } from '../../src/observability/SecretScrubber.js';

let server: Server;
let baseUrl: string;
const seen: { authorization?: string; url?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ authorization: request.headers.authorization, url: request.url });
    const url = new URL(request.url ?? '/', 'http://x');
    const reply = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    switch (url.searchParams.get('case')) {
      case 'bad-utf8':
        return reply(200, Buffer.concat([Buffer.from('{"status":"success","data":{"items":[{"id":"a","name":"x'), Buffer.from([0xff]), Buffer.from('y"}]},"message":""}')]));
      case 'echoing-key':
        return reply(200, '{"status":"success","data":{"items":[],"request":"/2.0/?api_key=secret-key"},"message":""}');
      case 'echo-url':
        return reply(200, JSON.stringify({ status: 'success', data: { items: [], next: request.url }, message: '' }));
      case 'nul':
        return reply(200, '{"status":"success","data":{"items":[{"id":"a","name":"x\\u0000y"}]},"message":""}');
      case 'redirect':
        return reply(302, '', { location: 'http://127.0.0.2:1/steal' });
      case 'trickle': {
        // A byte every 40 ms: each wait is short, the whole body is not.
        response.writeHead(200, { 'content-type': 'application/json' });
        const body = '{"status":"success","data":{},"message":""}';
        let sent = 0;
        const timer = setInterval(() => {
          if (sent < body.length) return void response.write(body[sent++]);
          clearInterval(timer);
          response.end();
        }, 40);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case 'refused-echoing-key': {
        // An error body on HTTP 200, as Etherscan's: the key in its result and its code, each character JSON-escaped.
        const escaped = [...'secret-key'].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        return reply(200, `{"status":"0","data":"Invalid API Key ${escaped}","message":"NOTOK","error":"${escaped}"}`);
      }
      case 'big':
        return reply(200, JSON.stringify({ status: 'success', data: { pad: 'x'.repeat(5000) }, message: '' }));
      default:
        return reply(200, '{"status":"success","data":{"items":[]},"message":"ok"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (overrides: Record<string, unknown> = {}) => new SourceClient('music', sourceSchema.parse({ baseUrl, apiKey: 'secret-key', path: '/2.0/', ...overrides }));

describe('SourceClient', () => {
  it('sends the key as a Bearer header, not in the URL', async () => {
    const page = await client().fetchPage({ q: 'a' });
    expect(seen.at(-1)?.authorization).toBe('Bearer secret-key');
    expect(page.url).not.toContain('secret-key');
  });

  it('keeps a body holding U+0000 exactly as received (records lose it when serialised for jsonb)', async () => {
    const page = await client().fetchPage({ case: 'nul' });
    expect(page.raw).toEqual(Buffer.from('{"status":"success","data":{"items":[{"id":"a","name":"x\\u0000y"}]},"message":""}'));
    expect(page.envelope.data).toEqual({ items: [{ id: 'a', name: 'x\u0000y' }] });
  });

  it('keeps a body of valid UTF-8 holding no secret as the bytes received, with their size and sha256', async () => {
    const page = await client().fetchPage({ case: 'default' });
    const sent = Buffer.from('{"status":"success","data":{"items":[]},"message":"ok"}');
    expect(Buffer.isBuffer(page.raw) && page.raw.equals(sent)).toBe(true);
    expect(page.bytes).toBe(sent.length);
    expect(page.contentHash).toBe(createHash('sha256').update(sent).digest('hex'));
  });

  it('keeps a body that is not valid UTF-8 as its text, each bad byte read as U+FFFD (Postgres would refuse the bytes)', async () => {
    const page = await client().fetchPage({ case: 'bad-utf8' });
    const text = '{"status":"success","data":{"items":[{"id":"a","name":"x\ufffdy"}]},"message":""}';
    expect(page.raw).toBe(text);
    expect(page.bytes).toBe(Buffer.byteLength(text));
    expect(page.contentHash).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('keeps a body that echoes the key as its text with the key scrubbed, never the bytes received', async () => {
    const page = await client().fetchPage({ case: 'echoing-key' });
    expect(page.raw).toBe('{"status":"success","data":{"items":[],"request":"/2.0/?api_key=***"},"message":""}');
    expect(page.contentHash).toBe(createHash('sha256').update(page.raw).digest('hex'));
  });

  it('counts the secret occurrences it scrubbed from a page', async () => {
    expect(await client().fetchPage({ case: 'echoing-key' })).toMatchObject({ secretsScrubbed: 1 });
  });

  it('counts the secret occurrences it scrubbed from an error answer on the error', async () => {
    await expect(client({ response: { errorCodePath: 'error' } }).fetchPage({ case: 'refused-echoing-key' })).rejects.toMatchObject({ secretsScrubbed: 2 });
  });

  it('sends a credential put in params, and masks it in the URL it stores', async () => {
    const page = await client().fetchPage({ case: 'echo-url', api_key: 'param-key-0123' });
    expect(seen.at(-1)!.url).toBe('/2.0/?case=echo-url&api_key=param-key-0123');
    expect(page.url).toBe(`${baseUrl}/2.0/?case=echo-url&api_key=***`);
  });

  it('sends a credential put in params again with a next page whose URL the upstream echoed, where it was masked', async () => {
    const paramKeyed = new SourceClient('music', sourceSchema.parse({ baseUrl, auth: { type: 'none' }, path: '/2.0/' }), { secrets: new SecretScrubber(['param-key-0123']) });
    const params = { case: 'echo-url', api_key: 'param-key-0123' };
    const next = ((await paramKeyed.fetchPage(params)).envelope.data as { next: string }).next;
    expect(next).toBe('/2.0/?case=echo-url&api_key=***');
    const page = await paramKeyed.fetchPage(params, next);
    expect(seen.at(-1)!.url).toBe('/2.0/?case=echo-url&api_key=param-key-0123');
    expect(page.url).toBe(`${baseUrl}/2.0/?case=echo-url&api_key=***`);
    await paramKeyed.close();
  });

  it('keeps a key an error body echoes JSON-escaped, in its data or its code, out of the error', async () => {
    const refused = client({ response: { errorCodePath: 'error' } }).fetchPage({ case: 'refused-echoing-key' });
    await expect(refused).rejects.toThrow('error response (status "0", code ***) (HTTP 200) upstream said: "NOTOK: Invalid API Key ***"');
    await expect(refused).rejects.toMatchObject({ upstreamMessage: 'NOTOK: Invalid API Key ***', excerpt: '{"status":"0","data":"Invalid API Key ***","message":"NOTOK","error":"***"}' });
  });

  it('does not follow a redirect, so the key never reaches another origin', async () => {
    await expect(client().fetchPage({ case: 'redirect' })).rejects.toMatchObject({ kind: 'redirect', status: 302 });
  });

  it('gives up on a body still arriving after timeoutMs, however steadily it trickles', async () => {
    await expect(client({ timeoutMs: 300 }).fetchPage({ case: 'trickle' })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('puts the parameters after the path, and after a query the path has of its own', async () => {
    expect((await client().fetchPage({ method: 'artist.search', q: 'a b&c' })).url).toBe(`${baseUrl}/2.0/?method=artist.search&q=a+b%26c`);
    expect(seen.at(-1)?.url).toBe('/2.0/?method=artist.search&q=a+b%26c');
    expect((await client({ path: '/api?format=json' }).fetchPage({ q: 'x' })).url).toBe(`${baseUrl}/api?format=json&q=x`);
    expect(seen.at(-1)?.url).toBe('/api?format=json&q=x');
  });

  it('refuses a body larger than maxResponseBytes', async () => {
    await expect(client({ maxResponseBytes: 1000 }).fetchPage({ case: 'big' })).rejects.toMatchObject({ kind: 'too_large' });
  });
});

/** What `action` throws; a test fails here if it throws nothing. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, and nothing was thrown');
}

describe('SourceClient keeps every request on baseUrl\'s origin', () => {
  it('resolves a next page given as a URL, an absolute path or a relative one against the endpoint', () => {
    const music = client({ path: '/2.0/?format=json' });
    expect(music.sameOriginPath(`${baseUrl}/2.0/?page=2`)).toBe('/2.0/?page=2');
    expect(music.sameOriginPath('/other/list?cursor=a%20b')).toBe('/other/list?cursor=a%20b');
    expect(music.sameOriginPath('?page=3')).toBe('/2.0/?page=3');
    expect(music.sameOriginPath('next#part')).toBe('/2.0/next');
  });

  it.each([
    ['a scheme-relative URL', '//127.0.0.2/steal', 'http://127.0.0.2'],
    ['a backslash the URL parser reads as a slash', '/\\127.0.0.2:9/steal', 'http://127.0.0.2:9'],
    ['another host', 'http://example.com/2.0/?page=2', 'http://example.com'],
    ['another port', 'http://127.0.0.1:1/2.0/', 'http://127.0.0.1:1'],
    ['another scheme', 'https://127.0.0.1/2.0/', 'https://127.0.0.1'],
    ['a scheme with no origin', 'javascript:alert(1)', 'null'],
  ])('refuses a next page on another origin: %s', (_case, nextPage, foreignOrigin) => {
    expect(thrownBy(() => client().sameOriginPath(nextPage))).toEqual(
      expect.objectContaining({ name: 'UpstreamError', kind: 'rejected', retryable: false, message: expect.stringContaining(`it leads to ${foreignOrigin}, not to baseUrl's origin ${baseUrl}`) as unknown }),
    );
  });

  it('refuses a next page that is not a URL', () => {
    expect(thrownBy(() => client().sameOriginPath('http://[::1'))).toEqual(expect.objectContaining({ kind: 'rejected', message: expect.stringContaining('"http://[::1": it is not a URL') as unknown }));
  });

  it.each(['//127.0.0.2/api', '/\\127.0.0.2/api'])('refuses a configured path that leads to another origin: %s', (path) => {
    expect(thrownBy(() => client({ path }))).toEqual(expect.objectContaining({ kind: 'rejected', message: expect.stringContaining('it leads to http://127.0.0.2,') as unknown }));
  });

  it('keeps a key an upstream puts in a next-page URL out of the error', () => {
    expect(thrownBy(() => client().sameOriginPath('http://example.com/?key=secret-key'))).toEqual(expect.objectContaining({ message: expect.not.stringContaining('secret-key') as unknown }));
  });
});
