import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayloadLines } from '../../src/storage/PayloadLines.js';

describe('PayloadLines', () => {
  it('writes the documents one a line in UTF-8, each hashed as its text is', () => {
    const lines = new PayloadLines();
    const documents = ['{"a":1}', '{"name":"café"}', '{"e":"🎉"}', '{"k":"漢字"}'];
    const hashes = documents.map((document) => lines.add(document));
    expect(lines.finish()?.toString('utf8')).toBe(documents.join('\n'));
    expect(hashes).toEqual(documents.map((document) => hash('sha1', document, 'base64')));
  });

  it.each([0, 6])('grows past its room without losing or cutting a line, multi-byte text included (%i lines expected)', (expected) => {
    const lines = new PayloadLines(expected);
    // A small first line, then 3 bytes a character: 60 kB of text and 180 kB of UTF-8 each.
    const documents = ['{"first":true}', ...Array.from({ length: 5 }, (_, index) => JSON.stringify({ index, text: '€'.repeat(60_000) }))];
    const hashes = documents.map((document) => lines.add(document));
    expect(lines.finish()?.toString('utf8')).toBe(documents.join('\n'));
    expect(hashes).toEqual(documents.map((document) => hash('sha1', document, 'base64')));
  });

  it('has nothing to send when no document was added', () => {
    expect(new PayloadLines().finish()).toBeNull();
  });
});
