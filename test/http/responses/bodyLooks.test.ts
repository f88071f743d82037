import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/config/records/exactJson.js';
import { responseErrorsSchema, responseSchema } from '../../../src/config/sources/responseSchema.js';
import { describeBody, describeText, looksCutShort, readerFor } from '../../../src/http/responses/bodyLooks.js';
import { responseShapeOf } from '../../../src/http/responses/responsePresets.js';

const shapeOf = (preset: string) => responseShapeOf(responseSchema.parse({ preset }), responseErrorsSchema.parse({}));

describe('looksCutShort', () => {
  it.each([
    ['an empty body', ''],
    ['a body of whitespace', ' \n\t'],
    ['an object cut after a key', '{"status":"success","data"'],
    ['a list cut inside a string', '[{"id":"a\\"b'],
    ['nested brackets still open', '{"data":{"items":[[1,2],[3'],
    ['a top-level string never closed', '"0x1b'],
  ])('holds %s cut short', (_what, raw) => {
    expect(looksCutShort(raw)).toBe(true);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Oops</body></html>'],
    ['plain text', 'Internal Server Error'],
    ['JSON with more after its end', '{"a":1}}'],
    ['brackets that cross', '{"a":[}'],
    ['a whole string with more after it', '"ok" then'],
    ['a bracket that closes none', ']'],
  ])('holds %s whole', (_what, raw) => {
    expect(looksCutShort(raw)).toBe(false);
  });
});

describe('describeText', () => {
  it.each([
    ['<!DOCTYPE html><html>', 'an HTML page'],
    ['  <html lang="en">', 'an HTML page'],
    ['<?xml version="1.0"?><error/>', 'markup (it starts with "<")'],
    ['Bad Gateway', 'plain text'],
  ])('calls %j %s', (raw, description) => {
    expect(describeText(raw, new Error('unused'))).toBe(description);
  });

  it("quotes the parser's complaint for text that starts as JSON", () => {
    expect(describeText('{"a":1}}', new Error('Unexpected character "}"'))).toBe('JSON that does not parse (Unexpected character "}")');
  });
});

describe('describeBody', () => {
  it.each([
    ['[1,2]', 'a list'],
    ['{"jsonrpc":"2.0","id":1,"result":"0x1"}', 'a JSON-RPC result'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}', 'a JSON-RPC error'],
    ['"ok"', 'a bare string "ok"'],
    ['9007199254740993', '9007199254740993'],
    ['null', 'null'],
    ['{}', 'an empty object'],
    ['{"status":"1","message":"OK","result":[]}', 'an object with status, message, result'],
  ])('describes %s as %s', (raw, description) => {
    expect(describeBody(parseJson(raw))).toBe(description);
  });

  it('cuts a long bare string', () => {
    expect(describeBody('x'.repeat(100))).toBe(`a bare string "${'x'.repeat(39)}…`);
  });
});

describe('readerFor', () => {
  it.each([
    ['a list', '[1,2]', 'envelope', 'status', 'response.preset: plain reads a body that is the data'],
    ['a JSON-RPC body', '{"jsonrpc":"2.0","id":1,"result":"0x1"}', 'envelope', 'status', 'response.preset: etherscan reads {status, message, result} and JSON-RPC'],
    ['an envelope', '{"status":"success","data":[],"message":""}', 'etherscan', 'status', 'response.preset: envelope reads {status, data, message}'],
    ["Etherscan's status, message and result", '{"status":"1","message":"OK","result":[]}', 'envelope', 'data', 'response.preset: etherscan reads {status, message, result} and JSON-RPC'],
    ['a Last.fm error', '{"error":10,"message":"Invalid API key"}', 'envelope', 'status', 'response.preset: lastfm reads a body that is the data, with {error, message} errors'],
    ['an envelope without data', '{"status":"success","results":[]}', 'envelope', 'data', 'response.dataPath: "." reads the whole body as the data'],
    ['an object with no status', '{"items":[]}', 'etherscan', 'status', 'response.preset: plain reads a body that is the data, or set response.statusPath to where it says success'],
  ])('points %s read as %s to what reads it', (_what, raw, preset, part, reader) => {
    expect(readerFor(parseJson(raw), shapeOf(preset), part as 'status' | 'data')).toBe(reader);
  });

  it('names nothing for a body of the very preset that could not read it', () => {
    expect(readerFor(parseJson('{"jsonrpc":"2.0","id":1,"error":{}}'), shapeOf('etherscan'), 'rpc')).toBeUndefined();
  });
});
