import { hasValidApiKey } from './apiKey.js';
import type { Chain, TxOrder } from './chain.js';
import type { ChainHead } from './chainHead.js';
import { contractAbiJson, contractSource } from './contracts.js';
import { parsePageRequest, slicePage, type PageRequest } from './paging.js';
import { choiceParam, integerParam, requiredParam, type InvalidParam, type ParamResult } from './queryParams.js';
import { errorReply, successReply, successReplyFromDataJson, type FaultReplies, type Reply, type RequestHandler } from './reply.js';

/** Etherscan refuses pages whose `page x offset` exceeds this; clients slide `startblock` instead. */
export const RESULT_WINDOW = 10_000;

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const TX_HASH = /^0x[0-9a-f]{64}$/i;

export interface ExplorerDeps {
  chain: Chain;
  head: ChainHead;
  apiKeys: ReadonlySet<string>;
  now: () => number;
}

interface ActionContext {
  params: URLSearchParams;
  chain: Chain;
  /** The head as of this request: nothing above it is visible. */
  head: number;
}

type Action = (context: ActionContext) => Reply;

/** Actions by `module.action`, lower-cased. */
const ACTIONS: Readonly<Record<string, Action>> = {
  'block.getblock': getBlock,
  'block.getblocks': getBlocks,
  'account.txlist': txList,
  'proxy.gettx': getTx,
  'proxy.eth_blocknumber': ({ head }) => successReply({ result: head }),
  'contract.getabi': getAbi,
  'contract.getsourcecode': getSourceCode,
};

/** `GET /api?module=...&action=...`, Etherscan style, answered in the feedsync envelope. */
export function explorerHandler(deps: ExplorerDeps): RequestHandler {
  return (request) => {
    if (request.url.pathname !== '/api' && request.url.pathname !== '/api/') return errorReply(404, 'NOT_FOUND', `No route ${request.url.pathname}`);
    if (request.method !== 'GET') return errorReply(405, 'METHOD_NOT_ALLOWED', 'Only GET is supported');
    if (!hasValidApiKey(request.headers, deps.apiKeys)) return errorReply(401, 'INVALID_API_KEY', 'Invalid API Key');
    const params = request.url.searchParams;
    const name = `${params.get('module') ?? ''}.${params.get('action') ?? ''}`.toLowerCase();
    const action = ACTIONS[name];
    if (action === undefined) return errorReply(400, 'UNKNOWN_ACTION', `Unknown module/action "${name}"`);
    return action({ params, chain: deps.chain, head: deps.head.at(deps.now()) });
  };
}

export const explorerFaultReplies: FaultReplies = {
  outage: () => errorReply(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable'),
  serverError: (status) => errorReply(status, 'SERVER_ERROR', `Upstream server error (${status})`),
  tooManyRequests: () => errorReply(429, 'RATE_LIMIT', 'Max rate limit reached, please slow down'),
  errorEnvelope: () => errorReply(200, 'NOTOK', 'Max rate limit reached'),
};

function invalidParams(error: InvalidParam): Reply {
  return errorReply(400, 'INVALID_PARAMS', error.message);
}

function windowTooLarge(): Reply {
  return errorReply(200, 'WINDOW_TOO_LARGE', `Result window is too large, PageNo x Offset size must be less than or equal to ${RESULT_WINDOW}`);
}

function getBlock({ params, chain, head }: ActionContext): Reply {
  const number = integerParam(params, 'q', { min: 0, fallback: -1 });
  if (!number.ok) return invalidParams(number.error);
  if (number.value < 0) return invalidParams({ kind: 'invalid_param', param: 'q', message: 'q (the block number) is required' });
  if (number.value > head) return errorReply(200, 'NOT_FOUND', `Block ${number.value} not found (head is ${head})`);
  return successReplyFromDataJson(`{"result":${chain.blockJson(number.value)}}`);
}

interface PagedRange {
  page: PageRequest;
  first: number;
  last: number;
  order: TxOrder;
}

/** startblock/endblock (clamped to the head), sort, page and limit; shared by the range listings. */
function parsePagedRange(params: URLSearchParams, head: number): ParamResult<PagedRange> {
  const page = parsePageRequest(params);
  if (!page.ok) return page;
  const first = integerParam(params, 'startblock', { min: 0, fallback: 0 });
  if (!first.ok) return first;
  const last = integerParam(params, 'endblock', { min: 0, fallback: Number.MAX_SAFE_INTEGER });
  if (!last.ok) return last;
  const order = choiceParam(params, 'sort', ['asc', 'desc'] as const);
  if (!order.ok) return order;
  return { ok: true, value: { page: page.value, first: first.value, last: Math.min(last.value, head), order: order.value } };
}

function pagedResultJson(range: PagedRange, total: number, itemsJson: (offset: number, count: number) => string): string {
  const slice = slicePage(range.page, total);
  const items = slice.count > 0 ? itemsJson(slice.offset, slice.count) : '';
  return `{"page":${slice.page},"perPage":${slice.perPage},"total":${slice.total},"totalPages":${slice.totalPages},"result":[${items}]}`;
}

function getBlocks({ params, chain, head }: ActionContext): Reply {
  const range = parsePagedRange(params, head);
  if (!range.ok) return invalidParams(range.error);
  const { page, first, last, order } = range.value;
  if (page.page * page.limit > RESULT_WINDOW) return windowTooLarge();
  const total = last < first ? 0 : last - first + 1;
  return successReplyFromDataJson(
    pagedResultJson(range.value, total, (offset, count) => {
      const blocks = new Array<string>(count);
      for (let n = 0; n < count; n++) blocks[n] = chain.blockJson(order === 'asc' ? first + offset + n : last - offset - n);
      return blocks.join(',');
    }),
  );
}

function txList({ params, chain, head }: ActionContext): Reply {
  const address = addressParam(params);
  if (!address.ok) return invalidParams(address.error);
  const range = parsePagedRange(params, head);
  if (!range.ok) return invalidParams(range.error);
  const { page, first, last, order } = range.value;
  if (page.page * page.limit > RESULT_WINDOW) return windowTooLarge();
  const k = chain.addressIndex(address.value);
  // A well-formed address that never transacts has an empty history, not an error.
  if (k === undefined) return successReplyFromDataJson(pagedResultJson(range.value, 0, () => ''));
  return successReplyFromDataJson(
    pagedResultJson(range.value, chain.addressTxCount(k, first, last), (offset, count) =>
      chain.addressTxsJson(k, first, last, order, offset, count),
    ),
  );
}

function getTx({ params, chain, head }: ActionContext): Reply {
  const hash = requiredParam(params, 'q');
  if (!hash.ok) return invalidParams(hash.error);
  if (!TX_HASH.test(hash.value)) return invalidParams({ kind: 'invalid_param', param: 'q', message: 'q must be a tx hash (0x + 64 hex digits)' });
  const location = chain.locateTx(hash.value);
  if (location === undefined || location.block > head) return errorReply(200, 'NOT_FOUND', `Transaction ${hash.value} not found`);
  return successReplyFromDataJson(`{"result":${chain.txJson(location.block, location.index)}}`);
}

function getAbi({ params, chain }: ActionContext): Reply {
  const contract = contractParam(params, chain);
  if (!contract.ok) return contract.reply;
  return successReply({ result: contractAbiJson(contract.index) });
}

function getSourceCode({ params, chain }: ActionContext): Reply {
  const contract = contractParam(params, chain);
  if (!contract.ok) return contract.reply;
  return successReply({ result: [contractSource(contract.index)] });
}

function addressParam(params: URLSearchParams): ParamResult<string> {
  const address = requiredParam(params, 'q');
  if (!address.ok) return address;
  if (!ADDRESS.test(address.value)) {
    return { ok: false, error: { kind: 'invalid_param', param: 'q', message: 'q must be an address (0x + 40 hex digits)' } };
  }
  return address;
}

function contractParam(params: URLSearchParams, chain: Chain): { ok: true; index: number } | { ok: false; reply: Reply } {
  const address = addressParam(params);
  if (!address.ok) return { ok: false, reply: invalidParams(address.error) };
  const index = chain.addressIndex(address.value);
  if (index === undefined || !chain.isContract(index)) {
    return { ok: false, reply: errorReply(200, 'NOT_A_CONTRACT', 'Contract source code not verified') };
  }
  return { ok: true, index };
}
