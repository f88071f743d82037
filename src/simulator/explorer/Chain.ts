import { hex6, hexFrom } from '../server/hex.js';
import { Prng, domainOf, hashOf, mix32 } from '../server/prng.js';

/**
 * The deterministic chain. Every block holds `txsPerBlock` txs and every tx is between two of the
 * `activeAddresses`: tx i of block b goes from address `i % A` to address `(i + 1 + b % (A - 1)) % A`.
 * So address k is party to exactly two residue classes of tx indices in every block, i.e.
 * 2T/A txs per block, and the j-th tx of an address in a block range is found in O(1) without
 * holding any tx in memory.
 */
export interface ChainShape {
  /** The head when the simulator starts (blocks 0..initialHead exist). */
  initialHead: number;
  /** Txs in every block; must be a multiple of activeAddresses. */
  txsPerBlock: number;
  /** Addresses that send and receive every tx (at least 2). Every fourth one (index 3, 7, ...) is a contract. */
  activeAddresses: number;
  /** Unix seconds of block 0. */
  genesisTimestamp: number;
  /** Seconds between consecutive block timestamps. */
  blockTimeSeconds: number;
}

/** Defaults give the hot address (index 0) 10 txs per block, 1,200,010 txs over blocks 0..120,000. */
export const DEFAULT_CHAIN_SHAPE: Readonly<ChainShape> = {
  initialHead: 120_000,
  txsPerBlock: 100,
  activeAddresses: 20,
  genesisTimestamp: 1_600_000_000,
  blockTimeSeconds: 12,
};

/** The hot address is active address 0: as busy as any and never a contract. */
export const HOT_ADDRESS_INDEX = 0;

/** Active addresses at index ≡ 3 (mod 4) are contracts. */
const CONTRACT_EVERY = 4;

/** Tx hashes end in 12 hex digits that encode the global tx index, so gettx can find a tx from its hash. */
const MAX_GLOBAL_TX_INDEX = 2 ** 48;
const TWO_POW_24 = 2 ** 24;
const FEISTEL_ROUNDS = 4;

const ZERO_HASH = `0x${'0'.repeat(64)}`;
const TOKEN_SELECTORS = ['a9059cbb', '095ea7b3', '23b872dd', 'd0e30db0'] as const;
const ZERO_WORD_PREFIX = '0'.repeat(24);
const ZERO_AMOUNT_PREFIX = '0'.repeat(48);

const DOMAIN = {
  address: domainOf('chain.address'),
  block: domainOf('chain.block'),
  miner: domainOf('chain.miner'),
  tx: domainOf('chain.tx'),
  txHashKey: domainOf('chain.txHashKey'),
  gasUsed: domainOf('chain.gasUsed'),
};

/** The gas a plain transfer uses, and its gas limit. */
const TRANSFER_GAS = 21_000;

export type TxOrder = 'asc' | 'desc';

/** A tx as drawn: each dialect writes its JSON from it. */
export interface TxFacts {
  block: number;
  index: number;
  hash: string;
  from: string;
  to: string;
  /** Wei, as decimal text. */
  value: string;
  gas: number;
  gasPrice: string;
  input: string;
  /** '1' succeeded, '0' failed. */
  status: '0' | '1';
  timeStamp: number;
}

export interface TxLocation {
  block: number;
  index: number;
}

export class Chain {
  readonly txsPerAddressPerBlock: number;
  private readonly addresses: readonly string[];
  private readonly addressArgWords: readonly string[];
  private readonly indexByAddress: ReadonlyMap<string, number>;
  private readonly hashKeys: readonly number[];
  /** One reusable stream: generation is synchronous, so requests never interleave on it. */
  private readonly stream = new Prng(0);

  constructor(
    private readonly seed: number,
    readonly shape: Readonly<ChainShape>,
  ) {
    this.txsPerAddressPerBlock = (2 * shape.txsPerBlock) / shape.activeAddresses;
    this.addresses = Array.from({ length: shape.activeAddresses }, (_, k) => addressOf(seed, k));
    this.addressArgWords = this.addresses.map((address) => ZERO_WORD_PREFIX + address.slice(2));
    this.indexByAddress = new Map(this.addresses.map((address, k) => [address, k]));
    this.hashKeys = Array.from({ length: FEISTEL_ROUNDS }, (_, round) => hashOf(seed, DOMAIN.txHashKey, round));
  }

  address(k: number): string {
    return this.addresses[k]!;
  }

  /** The active-address index of an address (any case), or undefined for an address that never transacts. */
  addressIndex(address: string): number | undefined {
    return this.indexByAddress.get(address.toLowerCase());
  }

  isContract(k: number): boolean {
    return k % CONTRACT_EVERY === CONTRACT_EVERY - 1;
  }

  blockHash(n: number): string {
    if (n < 0) return ZERO_HASH;
    this.stream.reseed(hashOf(this.seed, DOMAIN.block, n));
    return `0x${hexFrom(this.stream, 64)}`;
  }

  blockTimestamp(n: number): number {
    return this.shape.genesisTimestamp + n * this.shape.blockTimeSeconds;
  }

  blockJson(n: number): string {
    const miner = this.addresses[hashOf(this.seed, DOMAIN.miner, n) % this.shape.activeAddresses]!;
    return `{"number":${n},"hash":"${this.blockHash(n)}","parentHash":"${this.blockHash(n - 1)}","timestamp":${this.blockTimestamp(n)},"txCount":${this.shape.txsPerBlock},"miner":"${miner}"}`;
  }

  /** Txs of address k in blocks first..last (inclusive). */
  addressTxCount(k: number, first: number, last: number): number {
    return last < first ? 0 : (last - first + 1) * this.txsPerAddressPerBlock;
  }

  /**
   * The JSON array items (comma-separated, no brackets) of txs offset..offset+count-1 of address k
   * in blocks first..last, ordered by (blockNumber, transactionIndex) ascending or the reverse;
   * each written by `write` (a dialect's), or as the explorer's own JSON.
   */
  addressTxsJson(k: number, first: number, last: number, order: TxOrder, offset: number, count: number, write?: (block: number, index: number) => string): string {
    const perBlock = this.txsPerAddressPerBlock;
    const parts: string[] = new Array<string>(count);
    for (let n = 0; n < count; n++) {
      const j = offset + n;
      const blockStep = Math.floor(j / perBlock);
      const block = order === 'asc' ? first + blockStep : last - blockStep;
      const within = order === 'asc' ? j % perBlock : perBlock - 1 - (j % perBlock);
      const index = this.txIndexOfAddress(k, block, within);
      parts[n] = write === undefined ? this.txJson(block, index) : write(block, index);
    }
    return parts.join(',');
  }

  /** The index in block b of the `within`-th tx (0-based, ascending) of address k. */
  txIndexOfAddress(k: number, block: number, within: number): number {
    const A = this.shape.activeAddresses;
    const asReceiver = (((k - 1 - (block % (A - 1))) % A) + A) % A;
    const low = Math.min(k, asReceiver);
    const high = Math.max(k, asReceiver);
    return (within % 2 === 0 ? low : high) + A * Math.floor(within / 2);
  }

  txHash(block: number, index: number): string {
    const globalIndex = block * this.shape.txsPerBlock + index;
    this.stream.reseed(hashOf(this.seed, DOMAIN.tx, globalIndex));
    return `0x${hexFrom(this.stream, 52)}${this.scrambledIndexHex(globalIndex)}`;
  }

  /** Fields are drawn in a fixed order from one stream seeded by the tx's global index. */
  txFacts(block: number, index: number): TxFacts {
    const A = this.shape.activeAddresses;
    const fromK = index % A;
    const toK = (index + 1 + (block % (A - 1))) % A;
    const hash = this.txHash(block, index);
    const draw = this.stream;
    const valueDraw = draw.nextUint32();
    const value = valueDraw % 5 === 0 ? '0' : `${1 + ((valueDraw >>> 3) % 99_999)}0000000000000`;
    const gasPrice = `${1 + (draw.nextUint32() % 80)}000000000`;
    const status = draw.nextUint32() % 40 === 0 ? '0' : '1';
    let gas = TRANSFER_GAS;
    let input = '0x';
    if (this.isContract(toK)) {
      const call = draw.nextUint32();
      gas = 35_000 + (call % 165_000);
      input = `0x${TOKEN_SELECTORS[call & 3]!}${this.addressArgWords[fromK]!}${ZERO_AMOUNT_PREFIX}${hexFrom(draw, 16)}`;
    }
    return { block, index, hash, from: this.addresses[fromK]!, to: this.addresses[toK]!, value, gas, gasPrice, input, status, timeStamp: this.blockTimestamp(block) };
  }

  /** The explorer's own JSON of a tx (the envelope dialect's). */
  txJson(block: number, index: number): string {
    const tx = this.txFacts(block, index);
    return `{"hash":"${tx.hash}","blockNumber":${block},"transactionIndex":${index},"from":"${tx.from}","to":"${tx.to}","value":"${tx.value}","gas":${tx.gas},"gasPrice":"${tx.gasPrice}","input":"${tx.input}","status":"${tx.status}","timeStamp":${tx.timeStamp}}`;
  }

  /** How many txs the sender of tx `index` of `block` sent before it: address k sends tx indices k, k + A, k + 2A, ... of every block. */
  nonce(block: number, index: number): number {
    const A = this.shape.activeAddresses;
    return block * (this.shape.txsPerBlock / A) + Math.floor(index / A);
  }

  /** Gas a tx used: a transfer's 21,000, a contract call's up to 14,000 more (below the 35,000 its gas limit starts at). */
  gasUsed(block: number, index: number): number {
    const A = this.shape.activeAddresses;
    if (!this.isContract((index + 1 + (block % (A - 1))) % A)) return TRANSFER_GAS;
    return TRANSFER_GAS + (hashOf(this.seed, DOMAIN.gasUsed, block * this.shape.txsPerBlock + index) % 14_000);
  }

  /** Gas the txs of a block used up to and including tx `index`. */
  cumulativeGasUsed(block: number, index: number): number {
    let used = 0;
    for (let earlier = 0; earlier <= index; earlier++) used += this.gasUsed(block, earlier);
    return used;
  }

  /** Where the tx with this hash (0x + 64 hex, any case) is, or undefined if no tx has it. */
  locateTx(hash: string): TxLocation | undefined {
    const lower = hash.toLowerCase();
    const globalIndex = this.unscrambleIndex(Number.parseInt(lower.slice(54, 60), 16), Number.parseInt(lower.slice(60, 66), 16));
    const block = Math.floor(globalIndex / this.shape.txsPerBlock);
    const index = globalIndex % this.shape.txsPerBlock;
    return this.txHash(block, index) === lower ? { block, index } : undefined;
  }

  /** A 4-round Feistel permutation of the 48-bit global index: reversible, yet hashes do not look sequential. */
  private scrambledIndexHex(globalIndex: number): string {
    let left = Math.floor(globalIndex / TWO_POW_24) % TWO_POW_24;
    let right = globalIndex % TWO_POW_24;
    for (let round = 0; round < FEISTEL_ROUNDS; round++) {
      const next = (left ^ mix32(right ^ this.hashKeys[round]!)) & 0xffffff;
      left = right;
      right = next;
    }
    return hex6(left) + hex6(right);
  }

  private unscrambleIndex(scrambledLeft: number, scrambledRight: number): number {
    let left = scrambledLeft;
    let right = scrambledRight;
    for (let round = FEISTEL_ROUNDS - 1; round >= 0; round--) {
      const previous = (right ^ mix32(left ^ this.hashKeys[round]!)) & 0xffffff;
      right = left;
      left = previous;
    }
    return left * TWO_POW_24 + right;
  }
}

/** Why a chain shape cannot be used, or undefined when it can. */
export function chainShapeProblem(shape: Readonly<ChainShape>): { field: keyof ChainShape; message: string } | undefined {
  if (shape.activeAddresses < 2) return { field: 'activeAddresses', message: 'activeAddresses must be at least 2' };
  if (shape.txsPerBlock % shape.activeAddresses !== 0) {
    return {
      field: 'txsPerBlock',
      message: `txsPerBlock (${shape.txsPerBlock}) must be a multiple of activeAddresses (${shape.activeAddresses})`,
    };
  }
  // Half the hash-encodable range, leaving the other half for the head to grow into.
  if ((shape.initialHead + 1) * shape.txsPerBlock >= MAX_GLOBAL_TX_INDEX / 2) {
    return { field: 'initialHead', message: 'initialHead x txsPerBlock must stay below 2^47' };
  }
  return undefined;
}

function addressOf(seed: number, k: number): string {
  return `0x${hexFrom(new Prng(hashOf(seed, DOMAIN.address, k)), 40)}`;
}

/** The documented hot address for a seed: active address 0, party to 2T/A txs in every block. */
export function hotAddress(seed: number): string {
  return addressOf(seed, HOT_ADDRESS_INDEX);
}
