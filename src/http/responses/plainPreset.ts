import type { ResponsePreset } from './responseShape.js';

/** A body that is the data, with errors told by HTTP status alone. */
export const plainPreset: ResponsePreset = {
  successValues: [],
  dataPath: '.',
  emptyMessages: [],
  rateLimitedCodes: [],
  temporaryCodes: [],
  authCodes: [],
};
