import type { ApiKeys } from '../server/ApiKeys.js';
import type { Chain, TxOrder } from './Chain.js';
import type { ChainHead } from './ChainHead.js';
import { contractAbiJson, contractSource } from './contracts.js';
import { TokenTransfers } from './tokenTransfers.js';
import type { ExplorerAnswer, ExplorerFailure, ExplorerListing, ExplorerWire } from './explorerWire.js';
import { parsePageRequest, slicePage, type PageRequest } from '../server/paging.js';
import { choiceParam, integerParam, requiredParam, type InvalidParam, type ParamResult } from '../server/queryParams.js';
import type { RequestHandler, SimRequest } from '../server/reply.js';

/** Etherscan refuses pages whose `page x offset` exceeds this; clients slide `startblock` instead. */
export const RESULT_WINDOW = 10_000;

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const TX_HASH = /^0x[0-9a-f]{64}$/i;

export interface ExplorerDeps {
  chain: Chain;
  head: ChainHead;
  apiKeys: ApiKeys;
  /** The dialect's wire format for this endpoint. */
  wire: ExplorerWire;
  now: () => number;
}

interface ActionContext {
  params: URLSearchParams;
  chain: Chain;
  /** The head as of this request: nothing above it is visible. */
  head: number;
  maxPageSize: number | null;
  txJson: ExplorerWire['txJson'];
}

type Action = (context: ActionContext) => ExplorerAnswer;

/** Actions by `module.action`, lower-cased. */
const ACTIONS: Readonly<Record<string, Action>> = {
  'block.getblock': getBlock,
  'block.getblocks': getBlocks,
  'account.txlist': txList,
  'account.tokentx': tokenTx,
  'proxy.gettx': getTx,
  'proxy.eth_blocknumber': ({ head }) => ({ kind: 'headBlock', number: head }),
  'contract.getabi': getAbi,
  'contract.getsourcecode': getSourceCode,
};

/** `GET /api?module=...&action=...`, Etherscan style; the wire decides the path, how the answer looks and where the key goes. */
export function explorerHandler(deps: ExplorerDeps): RequestHandler {
  return (request) => {
    const refused = deps.wire.refuse?.(request);
    if (refused) return refused;
    const params = deps.wire.actionParams(request.url.searchParams);
    const module = (params.get('module') ?? '').toLowerCase();
    const throttled = deps.wire.answersWithoutKey === true && deps.wire.apiKeyOf(request) === undefined;
    return deps.wire.reply(explorerAnswer(deps, request, params, module, throttled), module, throttled);
  };
}

function explorerAnswer({ chain, head, apiKeys, wire, now }: ExplorerDeps, request: SimRequest, params: URLSearchParams, module: string, throttled: boolean): ExplorerAnswer {
  const path = request.url.pathname;
  if (path !== wire.path && path !== `${wire.path}/`) return { kind: 'noRoute', path };
  if (request.method !== 'GET') return { kind: 'methodNotAllowed' };
  // The explorer knows no suspension: a suspended key is just not a valid one.
  if (!throttled && apiKeys.standingOf(wire.apiKeyOf(request)) !== 'valid') return { kind: 'invalidKey' };
  const name = `${module}.${(params.get('action') ?? '').toLowerCase()}`;
  const action = ACTIONS[name];
  if (action === undefined) return { kind: 'unknownAction', name };
  return action({ params, chain, head: head.at(now()), maxPageSize: wire.maxPageSize, txJson: wire.txJson });
}

function invalidParams(error: InvalidParam): ExplorerFailure {
  return { kind: 'invalidParams', message: error.message };
}

function getBlock({ params, chain, head }: ActionContext): ExplorerAnswer {
  const number = integerParam(params, 'q', { min: 0, fallback: -1 });
  if (!number.ok) return invalidParams(number.error);
  if (number.value < 0) return invalidParams({ kind: 'invalid_param', param: 'q', message: 'q (the block number) is required' });
  if (number.value > head) return { kind: 'notFound', message: `Block ${number.value} not found (head is ${head})` };
  return { kind: 'result', resultJson: chain.blockJson(number.value) };
}

interface PagedRange {
  page: PageRequest;
  first: number;
  last: number;
  order: TxOrder;
}

/** startblock/endblock (clamped to the head), sort, page and limit; shared by the range listings. */
function parsePagedRange(params: URLSearchParams, head: number, maxPageSize: number | null): ParamResult<PagedRange> {
  const page = parsePageRequest(params, maxPageSize);
  if (!page.ok) return page;
  const first = integerParam(params, 'startblock', { min: 0, fallback: 0 });
  if (!first.ok) return first;
  const last = integerParam(params, 'endblock', { min: 0, fallback: Number.MAX_SAFE_INTEGER });
  if (!last.ok) return last;
  const order = choiceParam(params, 'sort', ['asc', 'desc'] as const);
  if (!order.ok) return order;
  return { ok: true, value: { page: page.value, first: first.value, last: Math.min(last.value, head), order: order.value } };
}

function pagedListing(items: ExplorerListing['items'], range: PagedRange, total: number, itemsJson: (offset: number, count: number) => string): ExplorerListing {
  const slice = slicePage(range.page, total);
  return { kind: 'listing', items, slice, itemsJson: slice.count > 0 ? itemsJson(slice.offset, slice.count) : '' };
}

function getBlocks({ params, chain, head, maxPageSize }: ActionContext): ExplorerAnswer {
  const range = parsePagedRange(params, head, maxPageSize);
  if (!range.ok) return invalidParams(range.error);
  const { page, first, last, order } = range.value;
  if (page.page * page.limit > RESULT_WINDOW) return { kind: 'windowTooLarge', window: RESULT_WINDOW };
  const total = last < first ? 0 : last - first + 1;
  return pagedListing('blocks', range.value, total, (offset, count) => {
    const blocks = new Array<string>(count);
    for (let n = 0; n < count; n++) blocks[n] = chain.blockJson(order === 'asc' ? first + offset + n : last - offset - n);
    return blocks.join(',');
  });
}

/** An address's txs in a block range, as Etherscan pages them, each written as the wire writes a tx. */
function txList(context: ActionContext): ExplorerAnswer {
  const { chain, head, txJson } = context;
  const write = txJson && ((block: number, index: number) => txJson.listed(chain, block, index, head));
  return addressListing(context, (k, { first, last, order }) => ({
    count: chain.addressTxCount(k, first, last),
    json: (offset, count) => chain.addressTxsJson(k, first, last, order, offset, count, write),
  }));
}

/** An address's token transfers in a block range (see TokenTransfers), paged as its txs are. */
function tokenTx(context: ActionContext): ExplorerAnswer {
  return addressListing(context, (k, { first, last, order }) => {
    const transfers = new TokenTransfers(context.chain, k, first, last);
    return { count: transfers.count, json: (offset, count) => transfers.json(order, offset, count, context.head) };
  });
}

/** A paged listing of address `q`'s items in a block range; `listed` says how many there are and writes a page of them. */
function addressListing(
  { params, chain, head, maxPageSize }: ActionContext,
  listed: (k: number, range: PagedRange) => { count: number; json: (offset: number, count: number) => string },
): ExplorerAnswer {
  const address = addressParam(params);
  if (!address.ok) return invalidParams(address.error);
  const range = parsePagedRange(params, head, maxPageSize);
  if (!range.ok) return invalidParams(range.error);
  if (range.value.page.page * range.value.page.limit > RESULT_WINDOW) return { kind: 'windowTooLarge', window: RESULT_WINDOW };
  const k = chain.addressIndex(address.value);
  // A well-formed address that never transacts has an empty history, not an error.
  if (k === undefined) return pagedListing('transactions', range.value, 0, () => '');
  const { count, json } = listed(k, range.value);
  return pagedListing('transactions', range.value, count, json);
}

function getTx({ params, chain, head, txJson }: ActionContext): ExplorerAnswer {
  const hash = requiredParam(params, 'q');
  if (!hash.ok) return invalidParams(hash.error);
  if (!TX_HASH.test(hash.value)) return invalidParams({ kind: 'invalid_param', param: 'q', message: 'q must be a tx hash (0x + 64 hex digits)' });
  const location = chain.locateTx(hash.value);
  if (location === undefined || location.block > head) return { kind: 'notFound', message: `Transaction ${hash.value} not found` };
  return { kind: 'result', resultJson: txJson ? txJson.alone(chain, location.block, location.index) : chain.txJson(location.block, location.index) };
}

function getAbi({ params, chain }: ActionContext): ExplorerAnswer {
  const contract = contractParam(params, chain, 'getabi');
  if (!contract.ok) return contract.failure;
  return { kind: 'result', resultJson: JSON.stringify(contractAbiJson(contract.index)) };
}

function getSourceCode({ params, chain }: ActionContext): ExplorerAnswer {
  const contract = contractParam(params, chain, 'getsourcecode');
  if (!contract.ok) return contract.failure;
  return { kind: 'result', resultJson: JSON.stringify([contractSource(contract.index)]) };
}

function addressParam(params: URLSearchParams): ParamResult<string> {
  const address = requiredParam(params, 'q');
  if (!address.ok) return address;
  if (!ADDRESS.test(address.value)) {
    return { ok: false, error: { kind: 'invalid_param', param: 'q', message: 'q must be an address (0x + 40 hex digits)' } };
  }
  return address;
}

function contractParam(params: URLSearchParams, chain: Chain, action: 'getabi' | 'getsourcecode'): { ok: true; index: number } | { ok: false; failure: ExplorerFailure } {
  const address = addressParam(params);
  if (!address.ok) return { ok: false, failure: invalidParams(address.error) };
  const index = chain.addressIndex(address.value);
  if (index === undefined || !chain.isContract(index)) return { ok: false, failure: { kind: 'notAContract', action } };
  return { ok: true, index };
}
