import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Chain, DEFAULT_CHAIN_SHAPE } from '../../../src/simulator/explorer/Chain.js';
import { startSimulator, type Simulator } from '../../../src/simulator/startSimulator.js';
import { explorerUrl, getBody } from '../httpClient.js';

interface Etherscan<Result> {
  status: '0' | '1';
  message: string;
  result: Result;
}

/** A tx as txlist lists it: every field text. */
type Tx = Record<string, string> & { hash: string; blockNumber: string };

interface JsonRpc<Result> {
  jsonrpc: '2.0';
  id: number;
  result?: Result;
  error?: { code: number; message: string };
}

const SEED = 21;
const WINDOW_MESSAGE = 'Result window is too large, PageNo x Offset size must be less than or equal to 10000';
let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: SEED, dialect: 'etherscan', chain: { blockIntervalMs: 0 } });
});

afterEach(() => {
  simulator.reset();
});

afterAll(async () => {
  await simulator.close();
});

/** An Etherscan request: the key in apikey. */
const call = <Body>(params: Record<string, string | number>) => getBody<Body>(explorerUrl(simulator, { apikey: simulator.apiKey, ...params }));

const txlist = (params: Record<string, string | number>) =>
  call<Etherscan<Tx[]>>({ module: 'account', action: 'txlist', address: simulator.hotAddress, ...params });

describe('etherscan dialect: success bodies', () => {
  it('answers txlist with status "1", message OK and the txs as result', async () => {
    const { status, body } = await txlist({ offset: 3 });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['status', 'message', 'result']);
    expect(body).toMatchObject({ status: '1', message: 'OK' });
    expect(body.result).toHaveLength(3);
    expect(body.result[0]!.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('takes the page size from offset, and from limit when offset is absent', async () => {
    const [byOffset, byLimit] = await Promise.all([txlist({ offset: 7 }), txlist({ limit: 9 })]);
    expect(byOffset.body.result).toHaveLength(7);
    expect(byLimit.body.result).toHaveLength(9);
  });

  it('pages with page, offset, startblock, endblock and sort', async () => {
    const range = { startblock: 40, endblock: 49, sort: 'desc' };
    const [whole, second] = await Promise.all([txlist({ ...range, offset: 1000 }), txlist({ ...range, offset: 5, page: 2 })]);
    expect(second.body.result).toEqual(whole.body.result.slice(5, 10));
    expect(whole.body.result.every((tx) => Number(tx.blockNumber) >= 40 && Number(tx.blockNumber) <= 49)).toBe(true);
    expect(whole.body.result[0]!.blockNumber).toBe('49');
  });

  it('lists a tx as Etherscan does: every number as decimal text, with its receipt and its confirmations', async () => {
    const [tx] = (await txlist({ startblock: 777, offset: 1 })).body.result;
    expect(Object.keys(tx!)).toEqual(['blockNumber', 'timeStamp', 'hash', 'nonce', 'blockHash', 'transactionIndex', 'from', 'to', 'value', 'gas', 'gasPrice', 'isError', 'txreceipt_status', 'input', 'contractAddress', 'cumulativeGasUsed', 'gasUsed', 'confirmations']);
    expect(Object.values(tx!).every((value) => typeof value === 'string')).toBe(true);
    expect(tx!.blockNumber).toBe('777');
    expect(Number(tx!.confirmations)).toBe(DEFAULT_CHAIN_SHAPE.initialHead - 777 + 1);
    expect(tx!.isError).toBe(tx!.txreceipt_status === '1' ? '0' : '1');
    expect(Number(tx!.cumulativeGasUsed)).toBeGreaterThanOrEqual(Number(tx!.gasUsed));
    expect(Number(tx!.gasUsed)).toBeLessThanOrEqual(Number(tx!.gas));
  });

  it('counts a sender\'s nonce up by one a tx', async () => {
    const sent = (await txlist({ startblock: 10, endblock: 12, offset: 100 })).body.result.filter((tx) => tx.from === simulator.hotAddress);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.map((tx) => Number(tx.nonce) - Number(sent[0]!.nonce))).toEqual(sent.map((_, n) => n));
  });

  it('accepts an offset above 1000 while page x offset stays within 10,000', async () => {
    const { body } = await txlist({ offset: 2000, page: 2 });
    expect(body.status).toBe('1');
    expect(body.result).toHaveLength(2000);
  });

  it('answers getblock with status "1" and the block as result', async () => {
    const { body } = await call<Etherscan<{ number: number }>>({ module: 'block', action: 'getblock', blockno: 1234 });
    expect(body).toMatchObject({ status: '1', message: 'OK', result: { number: 1234 } });
  });

  it('answers getabi with status "1" and the ABI as a JSON string', async () => {
    const contract = new Chain(SEED, DEFAULT_CHAIN_SHAPE).address(3);
    const { body } = await call<Etherscan<string>>({ module: 'contract', action: 'getabi', address: contract });
    expect(body.status).toBe('1');
    expect(JSON.parse(body.result)).toBeInstanceOf(Array);
  });

  it('answers getsourcecode for an address without verified source as Etherscan does: status "1", its fields empty', async () => {
    const { body } = await call<Etherscan<Record<string, string>[]>>({ module: 'contract', action: 'getsourcecode', address: new Chain(SEED, DEFAULT_CHAIN_SHAPE).address(1) });
    expect(body).toMatchObject({ status: '1', message: 'OK' });
    expect(body.result).toHaveLength(1);
    expect(body.result[0]).toMatchObject({ SourceCode: '', ABI: 'Contract source code not verified', ContractName: '' });
  });
});

describe('etherscan dialect: the proxy module speaks JSON-RPC', () => {
  it('answers eth_blockNumber with the head as a hex quantity', async () => {
    const { text } = await call({ module: 'proxy', action: 'eth_blockNumber' });
    expect(text).toBe(`{"jsonrpc":"2.0","id":1,"result":"0x${DEFAULT_CHAIN_SHAPE.initialHead.toString(16)}"}`);
  });

  it('answers eth_getTransactionByHash (txhash=) with the tx a txlist showed, its numbers as hex quantities', async () => {
    const listed = (await txlist({ startblock: 777, offset: 3 })).body.result[2]!;
    const { body } = await call<JsonRpc<Record<string, string>>>({ module: 'proxy', action: 'eth_getTransactionByHash', txhash: listed.hash });
    const hex = (decimal: string) => `0x${BigInt(decimal).toString(16)}`;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(body.result).toMatchObject({
      blockHash: listed.blockHash,
      blockNumber: hex(listed.blockNumber),
      from: listed.from,
      gas: hex(listed.gas!),
      gasPrice: hex(listed.gasPrice!),
      hash: listed.hash,
      input: listed.input,
      nonce: hex(listed.nonce!),
      to: listed.to,
      transactionIndex: hex(listed.transactionIndex!),
      value: hex(listed.value!),
    });
    expect(body.result!.r).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('answers a hash no tx has with a null result', async () => {
    const { body } = await call({ module: 'proxy', action: 'eth_getTransactionByHash', txhash: `0x${'1'.repeat(64)}` });
    expect(body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });

  it('answers a malformed hash with a JSON-RPC invalid-params error', async () => {
    const { status, body } = await call<JsonRpc<never>>({ module: 'proxy', action: 'gettx', txhash: '0x12' });
    expect(status).toBe(200);
    expect(body.error?.code).toBe(-32602);
  });
});

describe('etherscan dialect: the key', () => {
  it('takes no key from a Bearer header: answers as it does a request without a key, throttled', async () => {
    const { status, body } = await getBody(explorerUrl(simulator, { module: 'account', action: 'txlist', address: simulator.hotAddress, offset: 1 }), {
      authorization: `Bearer ${simulator.apiKey}`,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: '1', message: 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied' });
  });

  it('refuses an unknown apikey the same way', async () => {
    const { status, body } = await call({ module: 'proxy', action: 'eth_blockNumber', apikey: 'wrong' });
    expect(status).toBe(200);
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'Invalid API Key' });
  });
});

describe('etherscan dialect: token transfers', () => {
  const tokentx = (params: Record<string, string | number>) =>
    call<Etherscan<Record<string, unknown>[]>>({ module: 'account', action: 'tokentx', address: simulator.hotAddress, startblock: 100, endblock: 119, ...params });

  it('answers tokentx with Etherscan\'s fields, every value as text, and no logIndex', async () => {
    const { body } = await tokentx({ offset: 5 });
    expect(body).toMatchObject({ status: '1', message: 'OK' });
    expect(body.result).toHaveLength(5);
    const transfer = body.result[0]!;
    expect(Object.keys(transfer)).toEqual(['blockNumber', 'timeStamp', 'hash', 'nonce', 'blockHash', 'from', 'contractAddress', 'to', 'value', 'tokenName', 'tokenSymbol', 'tokenDecimal', 'transactionIndex', 'gas', 'gasPrice', 'gasUsed', 'cumulativeGasUsed', 'input', 'confirmations']);
    expect(Object.values(transfer).every((value) => typeof value === 'string')).toBe(true);
  });

  it('lists a tx that makes two transfers twice, told apart only by recipient and amount', async () => {
    const { body } = await tokentx({ offset: 1000 });
    const byTx = new Map<string, Record<string, unknown>[]>();
    for (const transfer of body.result) byTx.set(transfer.hash as string, [...(byTx.get(transfer.hash as string) ?? []), transfer]);
    const twice = [...byTx.values()].filter((transfers) => transfers.length === 2);
    expect(twice.length).toBeGreaterThan(0);
    const [first, second] = twice[0]!;
    expect({ ...first, to: '', value: '' }).toEqual({ ...second, to: '', value: '' });
    expect(first!.to === second!.to && first!.value === second!.value).toBe(false);
  });

  it('pages tokentx as txlist: page and offset over one ordered list', async () => {
    const [whole, second] = await Promise.all([tokentx({ offset: 1000 }), tokentx({ offset: 4, page: 2 })]);
    expect(second.body.result).toEqual(whole.body.result.slice(4, 8));
  });
});

describe('etherscan dialect: empty results', () => {
  it('answers a txlist of an address that never transacts with "No transactions found"', async () => {
    const { status, body } = await call({ module: 'account', action: 'txlist', address: `0x${'ab'.repeat(20)}` });
    expect(status).toBe(200);
    expect(body).toEqual({ status: '0', message: 'No transactions found', result: [] });
  });

  it('answers a page past the end of a txlist with "No transactions found"', async () => {
    const { body } = await txlist({ startblock: 0, endblock: 9, offset: 50, page: 20 });
    expect(body).toEqual({ status: '0', message: 'No transactions found', result: [] });
  });

  it('answers an empty block range with "No records found"', async () => {
    const { body } = await call({ module: 'block', action: 'getblocks', startblock: 9, endblock: 5 });
    expect(body).toEqual({ status: '0', message: 'No records found', result: [] });
  });
});

describe('etherscan dialect: API V2', () => {
  it('answers V1 paths with the deprecation NOTOK, whatever they ask', async () => {
    for (const path of ['/api', '/api/']) {
      const { status, body } = await getBody(`${simulator.explorerBaseUrl}${path}?module=account&action=txlist&address=${simulator.hotAddress}&apikey=${simulator.apiKey}`);
      expect(status).toBe(200);
      expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'You are using a deprecated V1 endpoint, switch to Etherscan API V2.' });
    }
  });

  it('answers a V2 request without chainid with its NOTOK', async () => {
    const { status, body } = await getBody(`${simulator.explorerBaseUrl}/v2/api?module=account&action=txlist&address=${simulator.hotAddress}&apikey=${simulator.apiKey}`);
    expect(status).toBe(200);
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'Missing chainid parameter (required for v2 api)' });
  });

  it('answers a request without a key with the data, throttled, saying so in its message', async () => {
    const { status, body } = await getBody<Etherscan<Tx[]>>(`${simulator.explorerBaseUrl}/v2/api?chainid=1&module=account&action=txlist&address=${simulator.hotAddress}&offset=2`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: '1', message: 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied' });
    expect(body.result).toHaveLength(2);
  });

  it('serves any chain id with one key', async () => {
    const [one, base] = await Promise.all([txlist({ chainid: 1, offset: 2 }), txlist({ chainid: 8453, offset: 2 })]);
    expect(one.body).toMatchObject({ status: '1', message: 'OK' });
    expect(base.body).toMatchObject({ status: '1', message: 'OK' });
  });
});

describe('etherscan dialect: error bodies', () => {
  it('refuses page x offset above 10,000 with the result-window NOTOK', async () => {
    const { status, body } = await txlist({ offset: 1000, page: 11 });
    expect(status).toBe(200);
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: WINDOW_MESSAGE });
  });

  it('refuses a single page larger than 10,000 with the result-window NOTOK', async () => {
    const { body } = await txlist({ offset: 10_001 });
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: WINDOW_MESSAGE });
  });

  it('answers a malformed address with HTTP 200, NOTOK and an Error! message', async () => {
    const { status, body } = await call<Etherscan<string>>({ module: 'account', action: 'txlist', address: '0x1234' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: '0', message: 'NOTOK' });
    expect(body.result).toMatch(/^Error! /);
  });

  it('answers an unknown action with NOTOK', async () => {
    const { body } = await call({ module: 'account', action: 'balancemulti' });
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Action name' });
  });

  it('answers getabi for an address that is not a contract with NOTOK', async () => {
    const { body } = await call({ module: 'contract', action: 'getabi', address: new Chain(SEED, DEFAULT_CHAIN_SHAPE).address(1) });
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' });
  });

  it.each([['tooManyRequests'], ['errorEnvelope']] as const)('answers %s with HTTP 200, NOTOK, Max rate limit reached and no Retry-After', async (kind) => {
    simulator.setFaults('explorer', { sequence: [kind] });
    const { status, headers, body } = await call({ module: 'proxy', action: 'eth_blockNumber' });
    expect(status).toBe(200);
    expect(headers.get('retry-after')).toBeNull();
    expect(body).toEqual({ status: '0', message: 'NOTOK', result: 'Max rate limit reached' });
  });

  it('answers an outage with 503 and a NOTOK body', async () => {
    simulator.setFaults('explorer', { outage: { forMs: 60_000 } });
    const { status, body } = await call({ module: 'proxy', action: 'eth_blockNumber' });
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: '0', message: 'NOTOK' });
  });

  it('answers serverError with its status and a NOTOK body', async () => {
    simulator.setFaults('explorer', { sequence: ['serverError'], serverErrorStatuses: [502] });
    const { status, body } = await call({ module: 'proxy', action: 'eth_blockNumber' });
    expect(status).toBe(502);
    expect(body).toMatchObject({ status: '0', message: 'NOTOK' });
  });
});
