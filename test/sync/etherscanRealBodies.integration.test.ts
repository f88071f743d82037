import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJob, resolveQuery, type ResolvedQuery } from '../../src/config/jobs/resolveQuery.js';
import type { Config } from '../../src/config/schema.js';
import { recordedJson } from '../support/realBodies.js';
import { at, pageRoutes, recordedRunTests, type RecordedRun } from '../support/recordedRuns.js';
import { exampleQuery, loadExample, replayRun } from '../support/replaySync.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

/*
 * examples/etherscan.yaml's settings (the etherscan preset, `offset` paging with its result window,
 * records at `.` and their keys) run with syncQuery against bodies the real Etherscan sent (V1
 * bodies: none of /v2/api was found; V2 answers alike). A query asks for the page size the
 * recording asked for; a full last recorded page is read with maxPages set to the pages recorded.
 */

let database: TestDatabase;
let config: Config;

beforeAll(async () => {
  [database, config] = await Promise.all([createTestDatabase(), loadExample('etherscan')]);
});
afterAll(async () => {
  await database.drop();
});

/** The example's transactions query, as its run for chain 1 performs it, with `changes` over it. */
const transactions = (c: Config, changes: Parameters<typeof exampleQuery>[2] = {}) => exampleQuery(c, 'transactions', changes, 0, '1');
/** Another action read with the example's contracts query (one address, no fan-out), its records at `.`. */
const action = (module: string, name: string, qParam: string, key: string | string[]) => (c: Config) =>
  exampleQuery(c, 'contracts', { qParam, params: { module, action: name }, records: { key, kind: `${module}_${name.toLowerCase()}` } });
/** The example's token-transfers query, as its run for chain 1 performs it: keyed without logIndex, which tokentx items lack. */
const tokenTransfers = (c: Config, changes: Parameters<typeof exampleQuery>[2] = {}) => exampleQuery(c, 'token-transfers', changes, 0, '1');
const TRANSFER_KEY = ['$query', 'hash', 'contractAddress', 'from', 'to', 'value'];
const headBlock = (c: Config): ResolvedQuery => resolveQuery(c, findJob(c, 'head-block'), 0, '1');

const RECORDED: RecordedRun[] = [
  // page=1 and page=2 at offset=20: a full page, then a short last one.
  { files: ['etherscan/account-txlist-page1.json', 'etherscan/account-txlist-page2-short.json'], query: (c) => transactions(c, { paging: { limit: 20 } }), items: 'result', key: ['$query', 'hash'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/account-txlist-one-item.json'], query: (c) => transactions(c), items: 'result', key: ['$query', 'hash'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/account-txlist-unpaged.json'], query: (c) => transactions(c), items: 'result', key: ['$query', 'hash'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/account-txlistinternal-page1.json'], query: (c) => transactions(c, { params: { action: 'txlistinternal' }, records: { key: ['$query', 'hash', 'traceId'] }, paging: { limit: 20 } }), items: 'result', key: ['$query', 'hash', 'traceId'], ends: ['succeeded', 'short_page'] },
  // page=2 at offset=1: a full page, and Etherscan states no total, so more may follow.
  { files: ['etherscan/account-txlistinternal-page2.json'], query: (c) => transactions(c, { params: { action: 'txlistinternal' }, records: { key: ['$query', 'hash', 'traceId'] }, paging: { limit: 1, maxPages: 1 } }), items: 'result', key: ['$query', 'hash', 'traceId'], ends: ['partial', 'max_pages'] },
  { files: ['etherscan/account-tokentx-address-contract.json'], query: (c) => tokenTransfers(c), items: 'result', key: TRANSFER_KEY, ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/account-tokentx-contract-100.json'], query: (c) => tokenTransfers(c, { paging: { limit: 100, maxPages: 1 } }), items: 'result', key: TRANSFER_KEY, ends: ['partial', 'max_pages'] },
  { files: ['etherscan/contract-getsourcecode.json'], query: (c) => exampleQuery(c, 'contracts'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/contract-getsourcecode-vyper.json'], query: (c) => exampleQuery(c, 'contracts'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/contract-getsourcecode-not-verified.json'], query: (c) => exampleQuery(c, 'contracts'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/contract-getsourcecode-missing-key-rate-limited.json'], query: (c) => exampleQuery(c, 'contracts'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  // Lone values (a wei balance, the ABI as a JSON string, a hex block number): a record each, under $query.
  { files: ['etherscan/account-balance.json'], query: action('account', 'balance', 'address', '$query'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/contract-getabi.json'], query: action('contract', 'getabi', 'address', '$query'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/proxy-eth_blockNumber.json'], query: headBlock, items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/account-balancemulti.json'], query: action('account', 'balancemulti', 'address', 'account'), items: 'result', key: ['account'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/proxy-eth_getTransactionByHash.json'], query: action('proxy', 'eth_getTransactionByHash', 'txhash', 'hash'), items: 'result', key: ['hash'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/transaction-getstatus-iserror.json'], query: action('transaction', 'getstatus', 'txhash', '$query'), items: 'result', key: ['$query'], ends: ['succeeded', 'short_page'] },
  { files: ['etherscan/logs-getLogs.json'], query: action('logs', 'getLogs', 'address', ['transactionHash', 'logIndex']), items: 'result', key: ['transactionHash', 'logIndex'], ends: ['succeeded', 'short_page'] },
];

describe('examples/etherscan.yaml on real Etherscan bodies: records', () => {
  recordedRunTests(RECORDED, () => ({ database, config }));

  it('stores the head eth_blockNumber sends as the hex quantity it is, keyed by the chain id', async () => {
    const { records } = await replayRun(database, pageRoutes(['etherscan/proxy-eth_blockNumber.json']), headBlock(config));
    expect(records).toEqual([{ key: '1', payload: '0x5e8c36' }]);
  });

  it('stores an unverified contract as Etherscan sends it: status "1", an empty SourceCode and a sentence for ABI', async () => {
    const { summary, records } = await replayRun(database, pageRoutes(['etherscan/contract-getsourcecode-not-verified.json']), exampleQuery(config, 'contracts'));
    expect(summary.status).toBe('succeeded');
    expect(records[0]!.payload).toMatchObject({ SourceCode: '', ABI: 'Contract source code not verified' });
  });

  it("keeps the data of a request Etherscan served with a key it did not accept, and the run says what Etherscan said", async () => {
    const { summary, records, warnings } = await replayRun(database, pageRoutes(['etherscan/contract-getsourcecode-missing-key-rate-limited.json']), exampleQuery(config, 'contracts'));
    expect(summary.status).toBe('succeeded');
    expect(records).toHaveLength(1);
    expect(warnings).toEqual([at(recordedJson('etherscan/contract-getsourcecode-missing-key-rate-limited.json'), 'message')]);
  });
});

describe('examples/etherscan.yaml on real Etherscan bodies: paging', () => {
  it('asks for page 2 after a full page of transactions, and stops at its short page', async () => {
    const { requests } = await replayRun(database, pageRoutes(['etherscan/account-txlist-page1.json', 'etherscan/account-txlist-page2-short.json']), transactions(config, { paging: { limit: 20 } }));
    expect(requests.map(({ params }) => [params.page, params.offset])).toEqual([
      ['1', '20'],
      ['2', '20'],
    ]);
  });

  it('sends the example\'s chain id, module, action and sort with every page', async () => {
    const { requests } = await replayRun(database, pageRoutes(['etherscan/account-txlist-unpaged.json']), transactions(config));
    expect(requests[0]!.path).toBe('/v2/api');
    expect(requests[0]!.params).toMatchObject({ chainid: '1', module: 'account', action: 'txlist', sort: 'asc', offset: '1000', page: '1' });
  });
});

describe('examples/etherscan.yaml on real Etherscan bodies: errors', () => {
  it.each([
    ['etherscan/proxy-eth_estimateGas-error.json', 'eth_estimateGas', 'JSON-RPC invalid params'],
    ['etherscan/proxy-eth_sendRawTransaction-error.json', 'eth_sendRawTransaction', 'JSON-RPC server error'],
  ])('%s: fails the run as rejected (%s: %s), without asking again', async (file, name, meaning) => {
    const { summary, requests, records } = await replayRun(database, pageRoutes([file]), action('proxy', name, 'data', '$query')(config));
    expect(summary).toMatchObject({ status: 'failed', final: true, error: { kind: 'rejected' } });
    expect(summary.error!.message).toContain(meaning);
    expect(summary.error!.message).toContain(at(recordedJson(file), 'error.message') as string);
    expect(requests).toHaveLength(1);
    expect(records).toEqual([]);
  });
});
