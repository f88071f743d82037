import type { ResponseConfig, ResponseErrorsConfig, ResponsePresetName } from '../../config/sources/responseSchema.js';

/** Where a response body keeps its status, data, message and error code, and what they mean. */
export interface ResponseShape {
  /** The preset it starts from, named in shape errors. */
  preset: ResponsePresetName;
  /** Without it, a body is an error when it has a value at `errorCodePath`. */
  statusPath?: string;
  successValues: readonly string[];
  /** `.`: the whole body is the data. */
  dataPath: string;
  messagePath?: string;
  errorCodePath?: string;
  /** Messages of a non-success body that mean an empty result (compared without case). */
  emptyMessages: readonly string[];
  /** Error codes by what they mean; text, as codes are compared. */
  rateLimitedCodes: readonly string[];
  temporaryCodes: readonly string[];
  authCodes: readonly string[];
  /** Fragments of a success body's message (compared without case) that say the data came with a warning (see warningOf). */
  warningMessages?: readonly string[];
  /** Errors whose fix is known, by a fragment of their text (compared without case): the fix goes into the error. */
  hints?: readonly ErrorHint[];
  /**
   * Also reads a JSON-RPC 2.0 body, one with `jsonrpc`, whatever the paths above say: its `result`
   * is the data, its `error` an error classed by code (see jsonRpc.ts). For an API that answers
   * some calls in JSON-RPC (Etherscan's proxy module).
   */
  jsonRpc?: boolean;
}

/** An error an upstream answers when it is asked the wrong way, and how to ask instead. */
export interface ErrorHint {
  message: string;
  hint: string;
}

/** A preset: a shape with its name left to the registry. */
export type ResponsePreset = Omit<ResponseShape, 'preset'>;

/** A preset's shape with the source's own fields and error codes over it. */
export function shapeFrom(preset: ResponsePreset, response: ResponseConfig, errors: ResponseErrorsConfig): ResponseShape {
  const { preset: name, ...fields } = response;
  const defined = <T extends object>(object: T) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
  const codes = { rateLimitedCodes: errors.rateLimitedCodes, temporaryCodes: errors.temporaryCodes, authCodes: errors.authCodes };
  return { ...preset, ...defined(fields), ...defined(codes), preset: name };
}
