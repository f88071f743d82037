import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chain, DEFAULT_CHAIN_SHAPE } from '../../../src/simulator/explorer/Chain.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { explorerUrl, getJson, type ServedTx as Tx } from '../httpClient.js';

interface Block {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txCount: number;
}

interface Paged<Item> {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  result: Item[];
}

const SEED = 21;
let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: SEED, chain: { blockIntervalMs: 0 } });
});

afterAll(async () => {
  await simulator.close();
});

const call = <Data>(params: Record<string, string | number>, key: string | null = simulator.apiKey) =>
  getJson<Data>(explorerUrl(simulator, params), key);

const txlist = (params: Record<string, string | number>) =>
  call<Paged<Tx>>({ module: 'account', action: 'txlist', q: simulator.hotAddress, ...params });

describe('explorer endpoint: blocks', () => {
  it('getblock returns the block, linked to its parent by hash', async () => {
    const [block, parent] = await Promise.all([
      call<{ result: Block }>({ module: 'block', action: 'getblock', q: 1234 }),
      call<{ result: Block }>({ module: 'block', action: 'getblock', q: 1233 }),
    ]);
    expect(block.body.data.result).toMatchObject({ number: 1234, parentHash: parent.body.data.result.hash, txCount: DEFAULT_CHAIN_SHAPE.txsPerBlock });
    expect(block.body.data.result.timestamp).toBeGreaterThan(parent.body.data.result.timestamp);
  });

  it('getblocks lists a block range in pages with totals', async () => {
    const { body } = await call<Paged<Block>>({ module: 'block', action: 'getblocks', startblock: 100, endblock: 124, limit: 10, page: 3 });
    expect(body.data).toMatchObject({ page: 3, perPage: 10, total: 25, totalPages: 3 });
    expect(body.data.result.map((block) => block.number)).toEqual([120, 121, 122, 123, 124]);
  });

  it('eth_blockNumber returns the head', async () => {
    const { body } = await call<{ result: number }>({ module: 'proxy', action: 'eth_blockNumber' });
    expect(body.data.result).toBe(DEFAULT_CHAIN_SHAPE.initialHead);
  });

  it('does not show a block above the head', async () => {
    const { status, body } = await call({ module: 'block', action: 'getblock', q: DEFAULT_CHAIN_SHAPE.initialHead + 1 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', data: { error: 'NOT_FOUND' } });
  });
});

describe('explorer endpoint: txlist', () => {
  it('lists txs of the address ordered by block then index when sort=asc', async () => {
    const { body } = await txlist({ startblock: 500, limit: 1000 });
    const txs = body.data.result;
    expect(txs).toHaveLength(1000);
    expect(txs[0]!.blockNumber).toBe(500);
    for (const [i, tx] of txs.entries()) {
      expect([tx.from, tx.to]).toContain(simulator.hotAddress);
      if (i > 0) {
        const previous = txs[i - 1]!;
        expect(tx.blockNumber > previous.blockNumber || (tx.blockNumber === previous.blockNumber && tx.transactionIndex > previous.transactionIndex)).toBe(true);
      }
    }
  });

  it('lists the same txs in reverse when sort=desc', async () => {
    const range = { startblock: 40, endblock: 49, limit: 1000 };
    const [asc, desc] = await Promise.all([txlist(range), txlist({ ...range, sort: 'desc' })]);
    expect(asc.body.data.total).toBe(desc.body.data.total);
    expect(desc.body.data.result).toEqual([...asc.body.data.result].reverse());
  });

  it('gives txs the documented fields and formats', async () => {
    const { body } = await txlist({ limit: 200 });
    for (const tx of body.data.result) {
      expect(tx.hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(tx.value).toMatch(/^\d+$/);
      expect(tx.gasPrice).toMatch(/^\d+$/);
      expect(tx.input).toMatch(/^0x([0-9a-f]{8}([0-9a-f]{64})*)?$/);
      expect(['0', '1']).toContain(tx.status);
      expect(tx.timeStamp).toBe(DEFAULT_CHAIN_SHAPE.genesisTimestamp + tx.blockNumber * DEFAULT_CHAIN_SHAPE.blockTimeSeconds);
    }
  });

  it('counts over a million txs for the hot address up to the head', async () => {
    const { body } = await txlist({ limit: 1 });
    expect(body.data.total).toBeGreaterThanOrEqual(1_000_000);
  });

  it('continues seamlessly when startblock slides past the last block read', async () => {
    const whole = await txlist({ startblock: 0, endblock: 19, limit: 200 });
    const first = await txlist({ startblock: 0, endblock: 19, limit: 100 });
    const lastBlock = first.body.data.result.at(-1)!.blockNumber;
    const next = await txlist({ startblock: lastBlock + 1, endblock: 19, limit: 100 });
    expect([...first.body.data.result, ...next.body.data.result]).toEqual(whole.body.data.result);
  });

  it('lists nothing, successfully, for an address that never transacts', async () => {
    const { body } = await call<Paged<Tx>>({ module: 'account', action: 'txlist', q: `0x${'ab'.repeat(20)}` });
    expect(body).toMatchObject({ status: 'success', data: { total: 0, totalPages: 0, result: [] } });
  });

  it('returns an empty page past the end of the range', async () => {
    const { body } = await txlist({ startblock: 0, endblock: 9, limit: 50, page: 20 });
    expect(body.status).toBe('success');
    expect(body.data.result).toEqual([]);
  });

  it('refuses a page beyond the 10,000 result window with WINDOW_TOO_LARGE', async () => {
    const { status, body } = await txlist({ limit: 1000, page: 11 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', data: { error: 'WINDOW_TOO_LARGE' } });
    expect(body.message).toContain('Result window is too large');
  });

  it('serves the last page inside the 10,000 result window', async () => {
    const { body } = await txlist({ limit: 1000, page: 10 });
    expect(body.status).toBe('success');
    expect(body.data.result).toHaveLength(1000);
  });

  it('rejects a malformed address with 400', async () => {
    const { status, body } = await call({ module: 'account', action: 'txlist', q: '0x1234' });
    expect(status).toBe(400);
    expect(body.status).toBe('error');
  });

  it('rejects a non-numeric startblock with 400', async () => {
    const { status } = await txlist({ startblock: 'latest' });
    expect(status).toBe(400);
  });

  it('rejects limit above 1000 with 400', async () => {
    const { status } = await txlist({ limit: 1001 });
    expect(status).toBe(400);
  });
});

describe('explorer endpoint: transactions and contracts', () => {
  const chain = new Chain(SEED, DEFAULT_CHAIN_SHAPE);
  const contract = chain.address(3);
  const plainAddress = chain.address(1);

  it('gettx returns the tx a txlist showed, by hash', async () => {
    const listed = (await txlist({ startblock: 777, limit: 3 })).body.data.result[2]!;
    const { body } = await call<{ result: Tx }>({ module: 'proxy', action: 'gettx', q: listed.hash.toUpperCase().replace('0X', '0x') });
    expect(body.data.result).toEqual(listed);
  });

  it('gettx answers NOT_FOUND for a hash no tx has', async () => {
    const { status, body } = await call({ module: 'proxy', action: 'gettx', q: `0x${'1'.repeat(64)}` });
    expect(status).toBe(200);
    expect(body.data).toEqual({ error: 'NOT_FOUND' });
  });

  it('getabi returns the ABI of a contract as a JSON string', async () => {
    const { body } = await call<{ result: string }>({ module: 'contract', action: 'getabi', q: contract });
    const abi = JSON.parse(body.data.result) as { type: string; name: string }[];
    expect(abi.some((entry) => entry.type === 'function')).toBe(true);
  });

  it('getsourcecode returns one verified source entry for a contract', async () => {
    const { body } = await call<{ result: { SourceCode: string; ContractName: string; CompilerVersion: string; ABI: string }[] }>({
      module: 'contract',
      action: 'getsourcecode',
      q: contract,
    });
    expect(body.data.result).toHaveLength(1);
    const [source] = body.data.result;
    expect(source!.SourceCode).toContain(`contract ${source!.ContractName}`);
    expect(JSON.parse(source!.ABI)).toBeInstanceOf(Array);
  });

  it('answers getabi for an address that is not a contract with an error envelope', async () => {
    const { status, body } = await call({ module: 'contract', action: 'getabi', q: plainAddress });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', data: { error: 'NOT_A_CONTRACT' } });
  });

  it('sends calls to contracts with input data and plain transfers without', async () => {
    const { body } = await call<Paged<Tx>>({ module: 'account', action: 'txlist', q: contract, limit: 50 });
    const incoming = body.data.result.filter((tx) => tx.to === contract);
    expect(incoming.length).toBeGreaterThan(0);
    expect(incoming.every((tx) => tx.input.length > 2)).toBe(true);
  });
});

describe('explorer endpoint: requests it refuses', () => {
  it('answers a request without a key with 401', async () => {
    const { status, body } = await call({ module: 'proxy', action: 'eth_blockNumber' }, null);
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 'error', data: { error: 'INVALID_API_KEY' } });
  });

  it('answers a request with a wrong key with 401', async () => {
    const { status } = await call({ module: 'proxy', action: 'eth_blockNumber' }, 'wrong');
    expect(status).toBe(401);
  });

  it('rejects an unknown module/action with 400', async () => {
    const { status, body } = await call({ module: 'account', action: 'balancemulti' });
    expect(status).toBe(400);
    expect(body.status).toBe('error');
  });
});

describe('explorer endpoint: head', () => {
  it('advances the head one block per blockIntervalMs and shows new blocks only then', async () => {
    let now = 1_000_000;
    const moving = await startSimulator({ seed: SEED, chain: { initialHead: 100, blockIntervalMs: 1000 }, now: () => now });
    const headOf = async () => (await getJson<{ result: number }>(explorerUrl(moving, { module: 'proxy', action: 'eth_blockNumber' }), moving.apiKey)).body.data.result;
    const txTotal = async () =>
      (await getJson<Paged<Tx>>(explorerUrl(moving, { module: 'account', action: 'txlist', q: moving.hotAddress, limit: 1 }), moving.apiKey)).body.data.total;
    try {
      expect(await headOf()).toBe(100);
      const totalBefore = await txTotal();
      now += 5_500;
      expect(await headOf()).toBe(105);
      expect(await txTotal()).toBe((totalBefore / 101) * 106);
      const block = await getJson(explorerUrl(moving, { module: 'block', action: 'getblock', q: 106 }), moving.apiKey);
      expect(block.body.data).toEqual({ error: 'NOT_FOUND' });
    } finally {
      await moving.close();
    }
  });

  it('advances the head with the real clock by default', async () => {
    const moving = await startSimulator({ seed: SEED, chain: { initialHead: 10, blockIntervalMs: 20 } });
    try {
      await new Promise((resolve) => setTimeout(resolve, 120));
      const { body } = await getJson<{ result: number }>(explorerUrl(moving, { module: 'proxy', action: 'eth_blockNumber' }), moving.apiKey);
      expect(body.data.result).toBeGreaterThanOrEqual(14);
    } finally {
      await moving.close();
    }
  });
});

describe('explorer endpoint: determinism', () => {
  it('answers byte-identically from two simulators with the same seed', async () => {
    const twin = await startSimulator({ seed: SEED, chain: { blockIntervalMs: 0 } });
    try {
      const params = { module: 'account', action: 'txlist', q: simulator.hotAddress, startblock: 31_337, limit: 500, sort: 'desc' };
      const [mine, twins] = await Promise.all([call(params), getJson(explorerUrl(twin, params), twin.apiKey)]);
      expect(twins.text).toBe(mine.text);
    } finally {
      await twin.close();
    }
  });
});
