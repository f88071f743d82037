import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README.md', () => {
  it('is read in five minutes: at most 1,800 words', () => {
    expect(readme.split(/\s+/).filter((word) => word !== '').length).toBeLessThanOrEqual(1800);
  });

  it('links every page of docs/', () => {
    const pages = readdirSync(new URL('../../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));
    expect(pages.filter((page) => !readme.includes(`(docs/${page})`))).toEqual([]);
  });
});
