import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayloadLines } from '../../../src/storage/records/PayloadLines.js';

describe('PayloadLines', () => {
  it('writes the documents one a line in UTF-8, each hashed as its text is', () => {
    const lines = new PayloadLines();
    const documents = ['{"a":1}', '{"name":"café"}', '{"e":"🎉"}', '{"k":"漢字"}'];
    const hashes = documents.map((document) => lines.add(document));
    expect(lines.finish()?.toString('utf8')).toBe(documents.join('\n'));
    expect(hashes).toEqual(documents.map((document) => hash('sha1', document, 'base64')));
  });

  it.each([
    ['no lines expected', 0, '{"first":true}'],
    ['room made for 6 lines after a first of 20 kB', 6, JSON.stringify({ first: 'x'.repeat(20_000) })],
  ])('grows past its room without losing or cutting a line, multi-byte text included (%s)', (_case, expected, first) => {
    const lines = new PayloadLines(expected);
    // 3 bytes a character: 60 kB of text and 180 kB of UTF-8 each.
    const documents = [first, ...Array.from({ length: 5 }, (_, index) => JSON.stringify({ index, text: '€'.repeat(60_000) }))];
    const hashes = documents.map((document) => lines.add(document));
    expect(lines.finish()?.toString('utf8')).toBe(documents.join('\n'));
    expect(hashes).toEqual(documents.map((document) => hash('sha1', document, 'base64')));
  });

  it('takes a huge first line among many expected without sizing the page by it (no room of gigabytes asked for)', () => {
    const lines = new PayloadLines(1000);
    // 5 MB × 1000 lines expected would ask for over 6 GB, past what a Buffer can hold.
    const documents = [JSON.stringify({ text: 'x'.repeat(5_000_000) }), '{"small":1}'];
    documents.forEach((document) => lines.add(document));
    expect(lines.finish()?.toString('utf8')).toBe(documents.join('\n'));
  });

  it('has nothing to send when no document was added', () => {
    expect(new PayloadLines().finish()).toBeNull();
  });
});
