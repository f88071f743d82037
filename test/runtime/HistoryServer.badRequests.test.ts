import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryServer } from '../../src/runtime/HistoryServer.js';
import { capturingLogger } from '../support/syncFixture.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';
import { badRequestRows } from './badRequestRows.js';

const RIGHT = `Basic ${Buffer.from('ops:pw').toString('base64')}`;

let database: TestDatabase;
let server: HistoryServer;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase();
  server = new HistoryServer({ storage: database, jobs: [{ name: 'artists' }], credentials: { user: 'ops', password: 'pw' }, logger: capturingLogger().logger });
  base = await server.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await server.close();
  await database.drop();
});

/** Sends a request as written (fetch would normalise its path); its status and body. */
function send(path: string, method: string, authorization: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${base}${path}`, { method, headers: authorization === undefined ? {} : { authorization } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('bad requests to the history pages', () => {
  it.each(badRequestRows)('$what: answered $status', async (row) => {
    const { status, body } = await send(row.path, row.method ?? 'GET', row.authorization === null ? undefined : (row.authorization ?? RIGHT));
    expect(status, body).toBe(row.status);
    expect(body.replaceAll('&quot;', '"')).toMatch(row.says);
  });
});
