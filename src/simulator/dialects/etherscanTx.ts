import type { Chain } from '../explorer/Chain.js';
import { hexFrom } from '../server/hex.js';
import { Prng } from '../server/prng.js';

/*
 * A transaction as Etherscan writes it. Its txlist sends every number as decimal text, with the
 * receipt's fields (isError, txreceipt_status, gasUsed, cumulativeGasUsed) and the confirmations
 * at the time of asking; its proxy module sends what a node does: hex quantities and the signature.
 */

/** A tx as txlist lists it; `head` is the chain's head as the request sees it. */
export function listedTxJson(chain: Chain, block: number, index: number, head: number): string {
  const tx = chain.txFacts(block, index);
  const nonce = chain.nonce(block, index);
  const blockHash = chain.blockHash(block);
  return (
    `{"blockNumber":"${block}","timeStamp":"${tx.timeStamp}","hash":"${tx.hash}","nonce":"${nonce}","blockHash":"${blockHash}",` +
    `"transactionIndex":"${index}","from":"${tx.from}","to":"${tx.to}","value":"${tx.value}","gas":"${tx.gas}","gasPrice":"${tx.gasPrice}",` +
    `"isError":"${tx.status === '1' ? '0' : '1'}","txreceipt_status":"${tx.status}","input":"${tx.input}","contractAddress":"",` +
    `"cumulativeGasUsed":"${chain.cumulativeGasUsed(block, index)}","gasUsed":"${chain.gasUsed(block, index)}","confirmations":"${head - block + 1}"}`
  );
}

/** A JSON-RPC quantity: hex without leading zeros, "0x0" for zero. */
function quantity(value: number | string): string {
  return `0x${BigInt(value).toString(16)}`;
}

/** A tx as eth_getTransactionByHash answers it (a legacy tx: v, r and s drawn from its hash). */
export function rpcTxJson(chain: Chain, block: number, index: number): string {
  const tx = chain.txFacts(block, index);
  const nonce = chain.nonce(block, index);
  const blockHash = chain.blockHash(block);
  const signature = new Prng(Number.parseInt(tx.hash.slice(2, 10), 16));
  const v = signature.nextUint32() % 2 === 0 ? '0x1b' : '0x1c';
  return (
    `{"blockHash":"${blockHash}","blockNumber":"${quantity(block)}","from":"${tx.from}","gas":"${quantity(tx.gas)}","gasPrice":"${quantity(tx.gasPrice)}",` +
    `"hash":"${tx.hash}","input":"${tx.input}","nonce":"${quantity(nonce)}","to":"${tx.to}","transactionIndex":"${quantity(index)}",` +
    `"value":"${quantity(tx.value)}","v":"${v}","r":"0x${hexFrom(signature, 64)}","s":"0x${hexFrom(signature, 64)}"}`
  );
}
