import type { ResponsePreset } from './responseShape.js';

/**
 * Etherscan and its family (L2 explorers, Blockscout's `/api`): `{status: "1", message: "OK",
 * result}`. `status "0"` is an error (`NOTOK`, with the reason in `result`) unless its message
 * says nothing was found. Errors have no code: they are told apart by message. The proxy module
 * answers in JSON-RPC instead (`{jsonrpc, id, result}`, or an `error` with a code), from the same
 * source, except for a rate-limit refusal, still a NOTOK.
 */
export const etherscanPreset: ResponsePreset = {
  statusPath: 'status',
  successValues: ['1'],
  dataPath: 'result',
  messagePath: 'message',
  emptyMessages: ['No transactions found', 'No records found', 'No token transfers found', 'No internal transactions found'],
  rateLimitedCodes: [],
  temporaryCodes: [],
  authCodes: [],
  jsonRpc: true,
  // A missing or bad key on some endpoints: status "1", the data, and "OK-Missing/Invalid API Key, rate limit of 1/5sec applied".
  warningMessages: ['invalid api key', 'rate limit'],
  // Both are `rejected`, so never retried: asked again the same way, they answer the same.
  hints: [
    { message: 'deprecated V1 endpoint', hint: 'Etherscan retired its V1 API on 15 August 2025: set the source\'s path to /v2/api on https://api.etherscan.io and send chainid (1 for Ethereum) in the params' },
    { message: 'missing chainid parameter', hint: 'Etherscan API V2 serves every chain at one path: add chainid to the query\'s params (1 for Ethereum, 8453 for Base, 42161 for Arbitrum One…)' },
  ],
};
