import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_BODIES_DIR as DIR, realBodies as manifest } from '../support/realBodies.js';

const NOT_BODIES = new Set(['manifest.json', 'README.md']);
/** Licences that let a file be copied into this MIT project as it is. */
const ALLOWED_LICENCES = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'MPL-2.0', 'CC0-1.0', 'Unlicense'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe('real-bodies manifest', () => {
  it('has at least 30 entries, from both services, each file listed once', () => {
    expect(manifest.length).toBeGreaterThanOrEqual(30);
    expect(new Set(manifest.map((entry) => entry.service))).toEqual(new Set(['lastfm', 'etherscan']));
    expect(new Set(manifest.map((entry) => entry.file)).size).toBe(manifest.length);
  });

  it('lists every body file under real-bodies, and every listed file exists', () => {
    const onDisk = filesUnder(DIR)
      .map((file) => relative(DIR, file).split(sep).join('/'))
      .filter((file) => !NOT_BODIES.has(file));
    expect(onDisk.sort()).toEqual(manifest.map((entry) => entry.file).sort());
    expect(manifest.filter((entry) => !existsSync(join(DIR, entry.file))).map((entry) => entry.file)).toEqual([]);
  });

  it.each(manifest.map((entry) => [entry.file, entry] as const))('%s: provenance, licence and JSON', (file, entry) => {
    expect(file.startsWith(`${entry.service}/`)).toBe(true);
    expect(['success', 'error', 'empty']).toContain(entry.kind);
    expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(entry.repository).toMatch(/^[^/\s]+\/[^/\s]+$/);
    expect(entry.path).not.toBe('');
    expect(ALLOWED_LICENCES).toContain(entry.licence);
    const bytes = readFileSync(join(DIR, file));
    // The manifest pins the bytes, so a body edited after it was taken from its source shows up here.
    expect(bytes.length).toBe(entry.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
    expect(() => JSON.parse(bytes.toString('utf8')) as unknown).not.toThrow();
  });
});
