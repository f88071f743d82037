import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedsync, writeConfig } from '../support/feedsyncProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { startTestReceiver, type TestReceiver } from '../support/testReceiver.js';

const API_KEY = 'sk-live-7f3a9c2e1b8d4f6a0c5e';
const WEBHOOK_SECRET = `whsec_${Buffer.from('an echo test signing secret 0123456789').toString('base64')}`;

let upstream: Server;
let upstreamUrl: string;
let receiver: TestReceiver;
let database: TestDatabase;

/**
 * An upstream that quotes the request back: page 1 succeeds and echoes the Authorization header
 * in its message and its one record, page 2 refuses the key and echoes it in its error, in the
 * plain and the base64 form.
 */
beforeAll(async () => {
  upstream = createServer((request, response) => {
    const authorization = request.headers.authorization ?? '';
    const page = new URL(request.url ?? '/', 'http://upstream').searchParams.get('page');
    response.setHeader('content-type', 'application/json');
    if (page === '1') {
      response.end(JSON.stringify({ status: 'success', data: { items: [{ id: 1, seenWith: authorization }] }, message: `served to ${authorization}` }));
      return;
    }
    response.statusCode = 401;
    // The key once more, each character escaped as \uXXXX: only the decoded message shows it.
    const escaped = [...API_KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    response.end(`{"status":"error","data":null,"message":"Invalid API key: ${authorization} (${Buffer.from(API_KEY).toString('base64')}) ${escaped}"}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  receiver = await startTestReceiver();
  database = await createTestDatabase();
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  await receiver.close();
  await database.drop();
});

describe('an upstream that echoes the API key', () => {
  it('never gets the key into the terminal, the log, a table or the notice posted to the webhook', async () => {
    const file = await writeConfig({
      sources: { echo: { baseUrl: upstreamUrl, apiKey: '${ECHO_KEY}', path: '/api', retry: { attempts: 1 } } },
      jobs: [{ name: 'echoed', source: 'echo', records: { path: 'items', kind: 'item', key: 'id' }, paging: { limit: 1 }, queries: [{ q: 'x' }] }],
      webhook: { baseUrl: receiver.baseUrl, uuid: '3f0c8a4e-6d3b-4a8e-9b1e-2a7c5d9e0f11', secret: WEBHOOK_SECRET, retryScheduleMs: [100] },
    });
    const run = startFeedsync(['run', 'echoed', '--config', file], { DATABASE_URL: database.url, ECHO_KEY: API_KEY, REDIS_URL: '' });
    const { code } = await run.exited;
    const output = run.output();
    // The run failed on page 2's refusal, and said what the upstream said, without the key.
    expect(code, output).not.toBe(0);
    expect(output).toContain('Invalid API key: Bearer *** (***) ***');
    for (const secret of [API_KEY, Buffer.from(API_KEY).toString('base64'), WEBHOOK_SECRET]) expect(output).not.toContain(secret);

    const tables = await database.pool.query<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    for (const { table_name } of tables.rows) {
      const dump = (await database.pool.query<{ row: string }>(`select t::text as row from ${table_name} t`)).rows.map((row) => row.row).join('\n');
      expect(dump, table_name).not.toContain(API_KEY);
      expect(dump, table_name).not.toContain(Buffer.from(API_KEY).toString('base64'));
    }
    const { rows } = await database.pool.query<{ message: string; error: string }>(`select e.message, r.error from envelopes e join sync_runs r on r.id = e.run_id`);
    expect(rows).toEqual([{ message: 'served to Bearer ***', error: expect.stringContaining('Invalid API key: Bearer ***') as string }]);

    const notices = receiver.received.map((request) => request.body);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('***');
    expect(notices[0]).not.toContain(API_KEY);
  }, 60_000);
});
