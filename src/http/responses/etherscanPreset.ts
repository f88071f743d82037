import type { ResponsePreset } from './responseShape.js';

/**
 * Etherscan and its family (L2 explorers, Blockscout's `/api`): `{status: "1", message: "OK",
 * result}`. `status "0"` is an error (`NOTOK`, with the reason in `result`) unless its message
 * says nothing was found. Errors have no code: they are told apart by message.
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
};
