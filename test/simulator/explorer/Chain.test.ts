import { describe, expect, it } from 'vitest';
import { Chain, DEFAULT_CHAIN_SHAPE, HOT_ADDRESS_INDEX, chainShapeProblem, hotAddress } from '../../../src/simulator/explorer/Chain.js';
import type { ServedTx as Tx } from '../httpClient.js';

const shape = { ...DEFAULT_CHAIN_SHAPE, initialHead: 50, txsPerBlock: 12, activeAddresses: 6 };
const chain = new Chain(7, shape);

/** Every tx of the address in blocks first..last, found the slow way: by generating every tx. */
function bruteForceTxs(address: string, first: number, last: number): Tx[] {
  const txs: Tx[] = [];
  for (let block = first; block <= last; block++) {
    for (let index = 0; index < shape.txsPerBlock; index++) {
      const tx = JSON.parse(chain.txJson(block, index)) as Tx;
      if (tx.from === address || tx.to === address) txs.push(tx);
    }
  }
  return txs;
}

function listed(k: number, first: number, last: number, order: 'asc' | 'desc', offset: number, count: number): Tx[] {
  return JSON.parse(`[${chain.addressTxsJson(k, first, last, order, offset, count)}]`) as Tx[];
}

describe('Chain', () => {
  it('lists exactly the txs an address is party to, ordered by block then index', () => {
    for (let k = 0; k < shape.activeAddresses; k++) {
      const expected = bruteForceTxs(chain.address(k), 3, 9);
      expect(chain.addressTxCount(k, 3, 9)).toBe(expected.length);
      expect(listed(k, 3, 9, 'asc', 0, expected.length)).toEqual(expected);
    }
  });

  it('lists in descending order as the exact reverse of ascending', () => {
    const count = chain.addressTxCount(2, 0, 20);
    expect(listed(2, 0, 20, 'desc', 0, count)).toEqual(listed(2, 0, 20, 'asc', 0, count).reverse());
  });

  it('returns the same txs for a window in the middle as for the full listing', () => {
    const all = listed(1, 0, 30, 'asc', 0, chain.addressTxCount(1, 0, 30));
    expect(listed(1, 0, 30, 'asc', 17, 9)).toEqual(all.slice(17, 26));
  });

  it('never makes a tx from an address to itself', () => {
    const txs = bruteForceTxs(chain.address(0), 0, shape.initialHead).concat(bruteForceTxs(chain.address(5), 0, 10));
    expect(txs.every((tx) => tx.from !== tx.to)).toBe(true);
  });

  it('finds a tx from its hash', () => {
    for (const [block, index] of [[0, 0], [17, 11], [50, 5]] as const) {
      expect(chain.locateTx(chain.txHash(block, index))).toEqual({ block, index });
    }
  });

  it('finds no tx for a hash it did not make', () => {
    const real = chain.txHash(4, 4);
    const forged = `${real.slice(0, 10)}${real[10] === '0' ? '1' : '0'}${real.slice(11)}`;
    expect(chain.locateTx(forged)).toBeUndefined();
  });

  it('chains every block to the hash of the one before', () => {
    const block = JSON.parse(chain.blockJson(12)) as { hash: string; parentHash: string };
    const parent = JSON.parse(chain.blockJson(11)) as { hash: string };
    expect(block.parentHash).toBe(parent.hash);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('gives the documented hot address at least a million txs up to the default initial head', () => {
    const defaults = new Chain(1, DEFAULT_CHAIN_SHAPE);
    expect(defaults.address(HOT_ADDRESS_INDEX)).toBe(hotAddress(1));
    expect(defaults.addressTxCount(HOT_ADDRESS_INDEX, 0, DEFAULT_CHAIN_SHAPE.initialHead)).toBeGreaterThanOrEqual(1_000_000);
  });

  it('rejects a txsPerBlock that is not a multiple of activeAddresses', () => {
    expect(chainShapeProblem({ ...DEFAULT_CHAIN_SHAPE, txsPerBlock: 30, activeAddresses: 20 })?.field).toBe('txsPerBlock');
  });
});
