import { describe, expect, it } from 'vitest';
import { committedText, GENERATED_DOCS } from './generatedDocs.js';

describe('files made from the code', () => {
  it.each(GENERATED_DOCS.map((doc) => [doc.path, doc] as const))('%s is as `npm run docs:write` writes it', async (_path, doc) => {
    const committed = await committedText(doc);
    expect(committed, 'stale: run `npm run docs:write` and commit the result').toBe(await doc.made(committed));
  });
});
