import type { ExplorerAnswer, ExplorerWire } from '../explorer/explorerWire.js';
import { unverifiedSource } from '../explorer/contracts.js';
import type { Reply } from '../server/reply.js';
import { listedTxJson, rpcTxJson } from './etherscanTx.js';

/** Etherscan's parameter names and the names the explorer's actions read; Etherscan's win when both are sent. */
const PARAM_NAMES: readonly (readonly [etherscan: string, simulator: string])[] = [
  ['offset', 'limit'],
  ['address', 'q'],
  ['txhash', 'q'],
  ['blockno', 'q'],
];

/** Etherscan's action names for actions the explorer has under another name. */
const ACTION_NAMES: Readonly<Record<string, string>> = { eth_gettransactionbyhash: 'gettx' };

/** Etherscan's proxy module forwards to a node and answers in JSON-RPC, not in its status/message/result. */
const PROXY_MODULE = 'proxy';
/** JSON-RPC's code for invalid method parameters. */
const RPC_INVALID_PARAMS = -32602;

/** Etherscan API V2: one path for every chain, named by `chainid`. */
const V2_PATH = '/v2/api';
/** Each explorer's own `/api`, retired on 15 August 2025. */
const V1_PATHS = new Set(['/api', '/api/']);
/** What Etherscan answers on V1 paths and to a V2 request without chainid (HTTP 200, as its other errors). */
const ETHERSCAN_V1_RETIRED = 'You are using a deprecated V1 endpoint, switch to Etherscan API V2.';
const ETHERSCAN_CHAINID_MISSING = 'Missing chainid parameter (required for v2 api)';

/**
 * The explorer as Etherscan's API V2 answers it: `{status: "1"|"0", message, result}` with HTTP
 * 200 for nearly everything, errors included; `/v2/api?chainid=…`, the key in `?apikey=`; paging by
 * page and offset. Every chain id gets the same chain: the simulator has one.
 */
export const etherscanExplorerWire: ExplorerWire = {
  path: V2_PATH,
  refuse(request) {
    const path = request.url.pathname;
    if (V1_PATHS.has(path)) return notOk(ETHERSCAN_V1_RETIRED);
    if ((path === V2_PATH || path === `${V2_PATH}/`) && !request.url.searchParams.get('chainid')) return notOk(ETHERSCAN_CHAINID_MISSING);
    return undefined;
  },
  answersWithoutKey: true,
  apiKeyOf: (request) => request.url.searchParams.get('apikey') || undefined,
  actionParams: etherscanParams,
  txJson: { listed: listedTxJson, alone: rpcTxJson },
  // Etherscan bounds a page only by its result window (page x offset <= 10,000).
  maxPageSize: null,
  reply: etherscanReply,
  faultReplies: {
    outage: () => notOk('Service temporarily unavailable', 503),
    serverError: (status) => notOk(`Upstream server error (${status})`, status),
    // Etherscan reports its rate limit inside an HTTP 200.
    tooManyRequests: () => notOk('Max rate limit reached'),
    errorEnvelope: () => notOk('Max rate limit reached'),
  },
};

function etherscanParams(params: URLSearchParams): URLSearchParams {
  const renamed = new URLSearchParams(params);
  for (const [etherscan, simulator] of PARAM_NAMES) {
    const value = params.get(etherscan);
    if (value !== null) renamed.set(simulator, value);
  }
  const action = ACTION_NAMES[(params.get('action') ?? '').toLowerCase()];
  if (action !== undefined) renamed.set('action', action);
  return renamed;
}

/** What Etherscan says beside the data it sends a request without a key. */
const THROTTLED = 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied';

function etherscanReply(answer: ExplorerAnswer, module: string, throttled: boolean): Reply {
  const viaProxy = module === PROXY_MODULE;
  const ok = JSON.stringify(throttled ? THROTTLED : 'OK');
  switch (answer.kind) {
    case 'listing':
      if (answer.slice.count === 0) return statusZero(answer.items === 'transactions' ? 'No transactions found' : 'No records found', '[]');
      return { status: 200, body: `{"status":"1","message":${ok},"result":[${answer.itemsJson}]}` };
    case 'result':
      return viaProxy ? rpcResult(answer.resultJson) : { status: 200, body: `{"status":"1","message":${ok},"result":${answer.resultJson}}` };
    case 'headBlock':
      return rpcResult(JSON.stringify(`0x${answer.number.toString(16)}`));
    case 'noRoute':
      return notOk(`No route ${answer.path}`, 404);
    case 'methodNotAllowed':
      return notOk('Only GET is supported', 405);
    case 'invalidKey':
      return notOk('Invalid API Key');
    case 'unknownAction':
      return notOk('Error! Missing Or invalid Action name');
    case 'invalidParams':
      return viaProxy ? rpcError(RPC_INVALID_PARAMS, answer.message) : notOk(`Error! ${answer.message}`);
    case 'notFound':
      // A node answers an unknown hash with a null result, not an error.
      return viaProxy ? rpcResult('null') : notOk(answer.message);
    case 'windowTooLarge':
      return notOk(`Result window is too large, PageNo x Offset size must be less than or equal to ${answer.window}`);
    case 'notAContract':
      // getsourcecode answers an address without verified source as it does one with: status "1", its fields empty.
      if (answer.action === 'getsourcecode') return { status: 200, body: `{"status":"1","message":${ok},"result":[${JSON.stringify(unverifiedSource())}]}` };
      return notOk('Contract source code not verified');
  }
}

function notOk(result: string, status = 200): Reply {
  return statusZero('NOTOK', JSON.stringify(result), status);
}

function statusZero(message: string, resultJson: string, status = 200): Reply {
  return { status, body: `{"status":"0","message":${JSON.stringify(message)},"result":${resultJson}}` };
}

function rpcResult(resultJson: string): Reply {
  return { status: 200, body: `{"jsonrpc":"2.0","id":1,"result":${resultJson}}` };
}

function rpcError(code: number, message: string): Reply {
  return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message } }) };
}
