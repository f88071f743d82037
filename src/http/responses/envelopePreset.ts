import type { ResponsePreset } from './responseShape.js';

/** The contract's `{status: "success", data, message}`; an error carries its code in `data.error`. */
export const envelopePreset: ResponsePreset = {
  statusPath: 'status',
  successValues: ['success'],
  dataPath: 'data',
  messagePath: 'message',
  errorCodePath: 'data.error',
  emptyMessages: [],
  rateLimitedCodes: [],
  temporaryCodes: [],
  authCodes: [],
};
