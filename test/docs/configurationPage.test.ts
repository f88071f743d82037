import { describe, expect, it } from 'vitest';
import { referenceSections } from './configurationPage.js';

const sections = await referenceSections();
const rows = sections.flatMap((section) => section.forms.flatMap((form) => form.rows.map((row) => ({ at: `${section.id}.${row.option}`, ...row }))));
/** An option whose type is a section of its own: that section shows its options' examples. */
const isSection = (type: string) => type.includes('](#');

describe("docs/configuration.md's reference", () => {
  it('gives every option a type and a description', () => {
    expect(rows.filter((row) => row.type === '' || row.description === '').map((row) => row.at)).toEqual([]);
  });

  it('gives every option that is not a section of its own an example', () => {
    expect(rows.filter((row) => !isSection(row.type) && row.example === '').map((row) => row.at)).toEqual([]);
  });

  it('has a section for every section a type links to', () => {
    const anchors = new Set(sections.map((section) => `#${section.id.toLowerCase()}`));
    const linked = rows.flatMap((row) => [...row.type.matchAll(/\]\((#[^)]+)\)/g)].map((match) => match[1]!));
    expect(linked.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });

  it('documents records, which the config holds only as job and query overrides, with the defaults a query ends with', () => {
    const records = sections.find((section) => section.id === 'records')!;
    expect(records.paths).toEqual(['jobs[].records', 'jobs[].queries[].records']);
    expect(records.forms[0]!.rows.find((row) => row.option === '`key`')?.default).toBe('`id`');
  });

  it('shows an example as a shipped config writes it, ${NAME} reference and all', () => {
    expect(rows.find((row) => row.at === 'source.`baseUrl`')?.example).toBe('`${LASTFM_BASE_URL:-https://ws.audioscrobbler.com}`');
  });
});
