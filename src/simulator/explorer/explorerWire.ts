import type { Chain } from './Chain.js';
import type { PageSlice } from '../server/paging.js';
import type { FaultReplies, Reply, SimRequest } from '../server/reply.js';

/** One page of a listing action; the items are JSON text already (the explorer's fast path). */
export interface ExplorerListing {
  kind: 'listing';
  /** What is listed; Etherscan words its empty answer after it. */
  items: 'transactions' | 'blocks';
  slice: PageSlice;
  /** The page's items as JSON values joined by commas; empty for an empty page. */
  itemsJson: string;
}

/** Why the explorer refused a request, in no wire's terms yet. */
export type ExplorerFailure =
  | { kind: 'noRoute'; path: string }
  | { kind: 'methodNotAllowed' }
  | { kind: 'invalidKey' }
  | { kind: 'unknownAction'; name: string }
  | { kind: 'invalidParams'; message: string }
  | { kind: 'notFound'; message: string }
  /** page x limit above the result window. */
  | { kind: 'windowTooLarge'; window: number }
  /** getabi or getsourcecode for an address with no verified source: Etherscan answers the two differently. */
  | { kind: 'notAContract'; action: 'getabi' | 'getsourcecode' };

/** What the explorer has to say to one request; an ExplorerWire turns it into bytes. */
export type ExplorerAnswer =
  | ExplorerListing
  /** One value as JSON text: a block, a tx, an ABI string, source entries. */
  | { kind: 'result'; resultJson: string }
  /** eth_blockNumber: the head, which dialects write differently (a number, a hex quantity). */
  | { kind: 'headBlock'; number: number }
  | ExplorerFailure;

/** How one dialect carries the explorer's requests and answers. */
export interface ExplorerWire {
  /** The path the explorer answers at (`/api`; Etherscan's V2 `/v2/api`); any other is no route. */
  path: string;
  /** A dialect's own answer to a request it refuses before reading it (Etherscan: its retired V1 path, a V2 request without chainid); undefined to go on. */
  refuse?(request: SimRequest): Reply | undefined;
  /** The API key where this dialect carries it; undefined when absent. */
  apiKeyOf(request: SimRequest): string | undefined;
  /** The query under the names the actions read (module, action, q, page, limit, startblock, endblock, sort). */
  actionParams(params: URLSearchParams): URLSearchParams;
  /**
   * How this dialect writes a tx: in a listing (txlist), with the chain's `head` as of the request,
   * and alone (the proxy's eth_getTransactionByHash); the explorer's own JSON (Chain.txJson) when absent.
   */
  txJson?: { listed(chain: Chain, block: number, index: number, head: number): string; alone(chain: Chain, block: number, index: number): string };
  /** Largest page size accepted; null: only the result window bounds it. */
  maxPageSize: number | null;
  /** Etherscan answers a request without a key, throttled, where others refuse it. */
  answersWithoutKey?: boolean;
  /**
   * `module` is the request's module, lower-cased ('' when absent): Etherscan's proxy module answers JSON-RPC.
   * `throttled`: the request had no key, and the dialect answers it anyway (answersWithoutKey).
   */
  reply(answer: ExplorerAnswer, module: string, throttled: boolean): Reply;
  faultReplies: FaultReplies;
}
