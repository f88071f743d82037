import { z } from 'zod';
import { dotPath, dotPathOrWhole } from '../records/dotPath.js';

/** An error code as the upstream sends it, number or text: compared as text. */
const errorCodes = z.array(z.union([z.string().min(1), z.number()]).transform(String)).min(1, 'needs at least one code');

/**
 * How a source's response bodies are read: a preset (src/http/responses/ registers each by name;
 * config may not import http, so the names are listed here too), with any field overridden.
 */
export const responseSchema = z
  .strictObject({
    preset: z
      .enum(['envelope', 'etherscan', 'lastfm', 'plain'])
      .describe(
        '`envelope`: the contract\'s `{status, data, message}`. `etherscan`: `{status: "1"/"0", message, result}` ("No transactions found" and "No records found" are an empty page), and the proxy module\'s JSON-RPC (`result` as sent, an `error` classed by its code). `lastfm`: the body is the data; `{error: code, message}` is an error, with HTTP 200 or 4xx. `plain`: the body is the data; errors by HTTP status only.',
      )
      .default('envelope'),
    statusPath: dotPath.meta({ description: 'Where the body says success or not; without it, a body is an error when it has a value at `errorCodePath`.', examples: ['status'] }).optional(),
    successValues: z
      .array(z.union([z.string(), z.number()]).transform(String))
      .min(1, 'needs at least one value')
      .meta({ description: 'The values at `statusPath` that mean success (compared as text).', examples: [['ok', 1]] })
      .optional(),
    dataPath: dotPathOrWhole.meta({ description: 'Where the data sits in the body; `.` for the whole body. Record paths, totals and cursors are read from it.', examples: ['result'] }).optional(),
    messagePath: dotPath.meta({ description: "Where the body's message sits: shown in a run's error, and matched by `errors.*Messages`.", examples: ['error.message'] }).optional(),
    errorCodePath: dotPath.meta({ description: "Where an error body carries its code (Last.fm's `error`), for `errors.*Codes`.", examples: ['error.code'] }).optional(),
    emptyMessages: z
      .array(z.string().min(1))
      .meta({ description: 'Messages of a body that is not a success that mean "nothing found": an empty page, not an error.', examples: [['No transactions found']] })
      .optional(),
  })
  .meta({ id: 'response', description: "How the source's response bodies are read: a `preset`, with any of its other fields set apart." });

/** How an error body or status is classified: by code first, then by message fragment. */
export const responseErrorsSchema = z
  .strictObject({
    rateLimitedMessages: z.array(z.string().min(1)).describe('Case-insensitive message fragments that mean "rate limited": retried after a wait.').default(['rate limit']),
    temporaryMessages: z.array(z.string().min(1)).describe('Fragments that mean a passing failure: retried.').default(['temporary', 'try again', 'service offline']),
    authMessages: z.array(z.string().min(1)).describe('Fragments that mean the key is bad: the run fails at once.').default(['invalid api key', 'suspended']),
    rateLimitedCodes: errorCodes.meta({ description: "Error codes (at `response.errorCodePath`) that mean rate limited; the preset's when left out (Last.fm's).", examples: [[29]] }).optional(),
    temporaryCodes: errorCodes.meta({ description: "Error codes that mean a passing failure; the preset's when left out (Last.fm's).", examples: [[8, 11, 16]] }).optional(),
    authCodes: errorCodes.meta({ description: "Error codes that mean a bad key; the preset's when left out (Last.fm's).", examples: [[9, 10, 26]] }).optional(),
  })
  .meta({
    id: 'errors',
    description: 'Which error bodies mean rate limited, passing, or a bad key: by code first, then by message fragment. Anything else is fatal.',
  });

export type ResponseConfig = z.output<typeof responseSchema>;
export type ResponsePresetName = ResponseConfig['preset'];
export type ResponseErrorsConfig = z.output<typeof responseErrorsSchema>;
