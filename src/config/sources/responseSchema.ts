import { z } from 'zod';
import { dotPath, dotPathOrWhole } from '../records/dotPath.js';

/** An error code as the upstream sends it, number or text: compared as text. */
const errorCodes = z.array(z.union([z.string().min(1), z.number()]).transform(String)).min(1, 'needs at least one code');

/**
 * How a source's response bodies are read: a preset (src/http/responses/ registers each by name;
 * config may not import http, so the names are listed here too), with any field overridden.
 */
export const responseSchema = z.strictObject({
  /** `envelope`: the contract's {status, data, message}; `etherscan`: {status "1"/"0", message, result}, and its proxy module's JSON-RPC; `lastfm`: the body is the data, errors are {error, message}; `plain`: the body is the data, errors are HTTP statuses only. */
  preset: z.enum(['envelope', 'etherscan', 'lastfm', 'plain']).default('envelope'),
  /** Where the body says success or not; without it, a body is an error when it has a value at `errorCodePath`. */
  statusPath: dotPath.optional(),
  /** Values at `statusPath` that mean success (compared as text). */
  successValues: z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'needs at least one value').optional(),
  /** Where the data sits in the body; `.` for the whole body. Record paths, totals and cursors are read from it. */
  dataPath: dotPathOrWhole.optional(),
  messagePath: dotPath.optional(),
  /** Where an error body carries its code (Last.fm's `error`), for `errors.*Codes`. */
  errorCodePath: dotPath.optional(),
  /** Messages of a non-success body that mean "nothing found": an empty page, not an error (Etherscan's "No transactions found"). */
  emptyMessages: z.array(z.string().min(1)).optional(),
});

/** How an error body or status is classified: by code first, then by message fragment. */
export const responseErrorsSchema = z.strictObject({
  /** Case-insensitive message fragments that mean "rate limited": retried after a wait. */
  rateLimitedMessages: z.array(z.string().min(1)).default(['rate limit']),
  /** Fragments that mean a passing failure: retried. */
  temporaryMessages: z.array(z.string().min(1)).default(['temporary', 'try again', 'service offline']),
  /** Fragments that mean the key is bad: the run fails at once. */
  authMessages: z.array(z.string().min(1)).default(['invalid api key', 'suspended']),
  /** Error codes (at `response.errorCodePath`) that mean rate limited, passing, or a bad key; the preset's when left out. */
  rateLimitedCodes: errorCodes.optional(),
  temporaryCodes: errorCodes.optional(),
  authCodes: errorCodes.optional(),
});

export type ResponseConfig = z.output<typeof responseSchema>;
export type ResponsePresetName = ResponseConfig['preset'];
export type ResponseErrorsConfig = z.output<typeof responseErrorsSchema>;
