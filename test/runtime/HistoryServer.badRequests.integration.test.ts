import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryServer } from '../../src/runtime/HistoryServer.js';
import { rawRequest } from '../support/rawRequest.js';
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

describe('bad requests to the history pages', () => {
  it.each(badRequestRows)('$what: answered $status', async (row) => {
    const { status, body } = await rawRequest(base, row.path, row.method ?? 'GET', row.authorization === null ? undefined : (row.authorization ?? RIGHT));
    expect(status, body).toBe(row.status);
    expect(body.replaceAll('&quot;', '"')).toMatch(row.says);
  });
});
