import { isJsonObject, stringifyJson } from '../../config/records/exactJson.js';
import { closingQuote } from '../../config/records/jsonDepth.js';
import type { ResponsePresetName } from '../../config/sources/responseSchema.js';
import { isJsonRpc, isJsonRpcError } from './jsonRpc.js';
import type { ResponseShape } from './responseShape.js';

/*
 * What a body looks like when a source's shape cannot read it: for errors that say whether asking
 * again could help (a body cut short), what the body is, and what would read it.
 */

const CLOSER: Readonly<Record<string, string>> = { '{': '}', '[': ']' };
/** A scalar named in an error is cut to this many characters. */
const SCALAR_CHARS = 40;

/**
 * Whether a text that does not parse as JSON looks cut short: empty, or JSON whose brackets
 * close as they opened up to its end, where a bracket or a string is still open. Such a body was
 * likely truncated on its way, and may come whole if asked again; any other will not.
 */
export function looksCutShort(raw: string): boolean {
  const start = raw.search(/\S/);
  if (start === -1) return true;
  if (!'{["'.includes(raw[start]!)) return false;
  const open: string[] = [];
  for (let at = start; at < raw.length; at++) {
    const char = raw[at]!;
    if (char === '"') {
      at = closingQuote(raw, at);
      if (at === raw.length) return true;
      if (open.length === 0) return false;
    } else if (char === '{' || char === '[') open.push(CLOSER[char]!);
    // A bracket closing another's kind, or closing the outermost value (whole, yet unparsable): garbled, not cut.
    else if ((char === '}' || char === ']') && (open.pop() !== char || open.length === 0)) return false;
  }
  return open.length > 0;
}

/** What a text that is not JSON looks like (`cause`: the parser's complaint, for text that starts as JSON does). */
export function describeText(raw: string, cause: unknown): string {
  const text = raw.trimStart();
  if (/^<(!doctype html|html)\b/i.test(text)) return 'an HTML page';
  if (text.startsWith('<')) return 'markup (it starts with "<")';
  if ('{["'.includes(text[0] ?? '')) return `JSON that does not parse (${(cause as Error).message})`;
  return 'plain text';
}

/** What a parsed body holds at its top: a JSON-RPC answer, a list, a bare value, or an object's fields. */
export function describeBody(body: unknown): string {
  if (Array.isArray(body)) return 'a list';
  if (isJsonRpc(body)) return isJsonRpcError(body) ? 'a JSON-RPC error' : 'a JSON-RPC result';
  if (typeof body === 'string') return `a bare string ${cut(JSON.stringify(body))}`;
  if (!isJsonObject(body)) return cut(stringifyJson(body));
  const keys = Object.keys(body);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
}

const cut = (text: string) => (text.length > SCALAR_CHARS ? `${text.slice(0, SCALAR_CHARS)}…` : text);

/** What each preset reads, for a body it would read that the source's shape cannot. */
const PRESET_READS: Readonly<Record<ResponsePresetName, string>> = {
  envelope: '{status, data, message}',
  etherscan: '{status, message, result} and JSON-RPC',
  lastfm: 'a body that is the data, with {error, message} errors',
  plain: 'a body that is the data',
};

/** The preset a body's fields point to; undefined for an object none fits. */
function presetOf(body: unknown): ResponsePresetName | undefined {
  if (!isJsonObject(body)) return 'plain';
  const has = (key: string) => Object.hasOwn(body, key);
  if (isJsonRpc(body) || (has('status') && has('result'))) return 'etherscan';
  if (has('status') && has('data')) return 'envelope';
  if (has('error') && has('message')) return 'lastfm';
  return undefined;
}

/** The part of a shape a body lacked: its status, text at its message path, its data, or (JSON-RPC) a result or an error's code. */
export type ShapePart = 'status' | 'message' | 'data' | 'rpc';

/** Settings that read a body lacking each part, when no other preset fits it. */
const PART_FIXES: Readonly<Record<ShapePart, string | undefined>> = {
  status: 'response.preset: plain reads a body that is the data, or set response.statusPath to where it says success',
  message: 'set response.messagePath to where the message is as text',
  data: 'response.dataPath: "." reads the whole body as the data',
  rpc: undefined,
};

/**
 * Which setting would read a JSON body `shape` cannot, lacking `part`: another preset, when the
 * body's fields point to one, else the setting for that part; undefined when none would.
 */
export function readerFor(body: unknown, shape: ResponseShape, part: ShapePart): string | undefined {
  const preset = presetOf(body);
  if (preset !== undefined && preset !== shape.preset) return `response.preset: ${preset} reads ${PRESET_READS[preset]}`;
  return PART_FIXES[part];
}
