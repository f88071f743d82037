import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { parseDocument } from 'yaml';
import { ConfigError } from '../ConfigError.js';
import { inexactNumbers } from './inexactNumbers.js';
import { MAX_DEPTH } from './treeShape.js';

const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * The config tree a file holds, YAML or a JS/TS module's default export; anything that keeps it
 * from being read is a ConfigError naming `file` (as the user gave it).
 */
export async function readConfigFile(path: string, file: string): Promise<unknown> {
  const refuse = (message: string, where = '', cause?: unknown) => new ConfigError(file, [{ path: where, message }], { cause });
  const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? refuse('file not found', '', error) : refuse(error.message);
  });
  // Reading a FIFO waits for a writer forever; a directory or a device is no config either.
  if (stats.isDirectory()) throw refuse('is a directory, not a config file');
  if (!stats.isFile()) throw refuse('is not a regular file (a FIFO, socket or device); give the path of a YAML or TypeScript file');
  if (MODULE_EXTENSIONS.includes(extname(path))) return importDefault(path, refuse);
  const bytes = await readFile(path).catch((error: Error) => {
    throw refuse(error.message);
  });
  const text = decodeUtf8(bytes, refuse);
  const document = parseDocument(text, { prettyErrors: true });
  const [error] = document.errors;
  if (error) {
    const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [0, 0];
    // The parser's own message would say only that its stack ran out, then again as the cause.
    if (isStackOverflow(error)) throw refuse(TOO_DEEP, `line ${line}:${col}`);
    throw refuse(error.message.split('\n')[0] ?? error.message, `line ${line}:${col}`, error);
  }
  if (document.contents === null) throw refuse('the file is empty (nothing but blank lines or comments)');
  const inexact = inexactNumbers(document);
  if (inexact.length > 0) throw new ConfigError(file, inexact);
  try {
    return document.toJS();
  } catch (error) {
    // Aliases are resolved here: too many of them (an alias bomb) or one to an unknown anchor.
    throw refuse(isStackOverflow(error) ? TOO_DEEP : (error as Error).message);
  }
}

const TOO_DEEP = `the YAML nests lists or mappings deeper than the parser can follow (a config needs fewer than ${MAX_DEPTH} levels)`;

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && error.message.startsWith('Maximum call stack size exceeded'));
}

async function importDefault(path: string, refuse: (message: string) => ConfigError): Promise<unknown> {
  const url = pathToFileURL(path).href;
  let module: { default?: unknown };
  try {
    module = (await withoutExit(() => (path.endsWith('ts') ? importTypeScript(url) : import(url)))) as { default?: unknown };
  } catch (error) {
    // A module may throw anything: a string or an object prints as itself, not as `undefined`.
    throw refuse(error instanceof Error ? error.message : `the module threw ${inspect(error)}`);
  }
  // A .ts file outside an ESM package loads as CommonJS: `default` is then its exports object, the
  // default export one level deeper, and without one its named exports (never the config); a
  // script that exports nothing has an empty exports object.
  const exports = module.default as { __esModule?: unknown; default?: unknown } | undefined;
  const commonJs = exports !== null && typeof exports === 'object' && exports.__esModule === true;
  const config = commonJs ? exports.default : module.default;
  const empty = config !== null && typeof config === 'object' && Reflect.ownKeys(config).length === 0;
  if (config === undefined || empty) throw refuse(`the module has no default export${empty ? ' (or an empty one)' : ''} (use \`export default defineConfig({...})\`)`);
  return config;
}

/**
 * A module that calls process.exit while it loads would end `config check` with its code, as if
 * the config passed: meanwhile, exit throws instead, failing the load.
 */
async function withoutExit<T>(load: () => Promise<T>): Promise<T> {
  const exit = Object.getOwnPropertyDescriptor(process, 'exit')!;
  const refuse = (code?: number | string | null): never => {
    throw new Error(`the module called process.exit(${code ?? ''}) while loading; a config module must only export its settings`);
  };
  process.exit = refuse;
  try {
    return await load();
  } finally {
    Object.defineProperty(process, 'exit', exit);
  }
}

/** Node 20 cannot import TypeScript itself; tsx, loaded only for such a config, compiles it on the fly. */
async function importTypeScript(url: string): Promise<unknown> {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(url, import.meta.url);
}

/** The text of a UTF-8 file; UTF-16 and bytes that are not UTF-8 are refused, never replaced. */
function decodeUtf8(bytes: Buffer, refuse: (message: string, where?: string) => ConfigError): string {
  const bom = bytes.subarray(0, 2).toString('hex');
  if (bom === 'fffe' || bom === 'feff') throw refuse('the file is UTF-16; save it as UTF-8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidByte(bytes);
    const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(0x0a, offset - 1) + 1;
    const line = bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1;
    throw refuse(`byte ${offset} (0x${bytes[offset]?.toString(16).padStart(2, '0')}) is not UTF-8; save the file as UTF-8`, `line ${line}:${offset - lineStart + 1}`);
  }
}

/**
 * Offset of the first byte of the first sequence that is not UTF-8. Halving finds the longest
 * prefix that decodes, an unfinished character at its end allowed (a prefix that does not decode
 * only ever grows into one that does not); that unfinished character, if any, is where it breaks.
 */
function firstInvalidByte(bytes: Buffer): number {
  // ignoreBOM keeps a UTF-8 BOM as a character, so that the text's length in bytes is the prefix's.
  const decoded = (length: number) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true });
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      decoded(middle);
      good = middle;
    } catch {
      bad = middle;
    }
  }
  return Buffer.byteLength(decoded(good));
}
