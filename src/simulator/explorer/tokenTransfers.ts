import type { Chain, TxFacts, TxOrder } from './Chain.js';

/** `transferFrom(address,address,uint256)`: its tx moves the tokens and then a fee, two transfers in one tx. */
const TRANSFER_FROM = '23b872dd';

/** One token transfer: the tx it is in, and whether it is that tx's second (a transferFrom's fee). */
interface TransferAt {
  block: number;
  index: number;
  fee: boolean;
}

/**
 * Etherscan's `tokentx` for the simulator's chain: address k's txs that call a contract, as the
 * token transfers they make (a transferFrom two: the tokens, then a fee), in block order. Their
 * items are Etherscan's, every value text and no `logIndex` (which Etherscan does not send), so two
 * transfers of one tx differ only in `to` and `value`.
 */
export class TokenTransfers {
  private readonly all: TransferAt[] = [];

  constructor(
    private readonly chain: Chain,
    k: number,
    first: number,
    last: number,
  ) {
    for (let block = first; block <= last; block++) {
      for (let within = 0; within < chain.txsPerAddressPerBlock; within++) {
        const index = chain.txIndexOfAddress(k, block, within);
        const tx = chain.txFacts(block, index);
        if (tx.input === '0x') continue;
        this.all.push({ block, index, fee: false });
        if (tx.input.slice(2, 10) === TRANSFER_FROM) this.all.push({ block, index, fee: true });
      }
    }
  }

  get count(): number {
    return this.all.length;
  }

  /** Transfers offset..offset+count-1 in `order`, as JSON items joined by commas; `head` dates their confirmations. */
  json(order: TxOrder, offset: number, count: number, head: number): string {
    const ordered = order === 'asc' ? this.all : [...this.all].reverse();
    return ordered
      .slice(offset, offset + count)
      .map((at) => this.itemJson(at, head))
      .join(',');
  }

  private itemJson({ block, index, fee }: TransferAt, head: number): string {
    const tx: TxFacts = this.chain.txFacts(block, index);
    const contract = this.chain.addressIndex(tx.to)!;
    const amount = BigInt(`0x${tx.input.slice(-16)}`);
    const recipient = this.chain.address((contract + 2 + (block % 5)) % this.chain.shape.activeAddresses);
    const text = (value: number | bigint): string => String(value);
    return JSON.stringify({
      blockNumber: text(block),
      timeStamp: text(tx.timeStamp),
      hash: tx.hash,
      nonce: text(index),
      blockHash: this.chain.blockHash(block),
      from: tx.from,
      contractAddress: tx.to,
      to: fee ? this.chain.address(1) : recipient,
      value: text(fee ? amount / 100n : amount),
      tokenName: `Token ${contract}`,
      tokenSymbol: `TK${contract}`,
      tokenDecimal: '18',
      transactionIndex: text(tx.index),
      gas: text(tx.gas),
      gasPrice: tx.gasPrice,
      gasUsed: text(Math.floor(tx.gas * 0.8)),
      cumulativeGasUsed: text(Math.floor(tx.gas * 0.8) * (tx.index + 1)),
      input: 'deprecated',
      confirmations: text(head - block),
    });
  }
}
