import { describe, expect, it } from 'vitest';
import { configWarnings, producedKinds } from '../../src/config/configWarnings.js';
import { parseConfig } from '../../src/config/loading/loadConfig.js';
import { validTree } from '../support/configTrees.js';
import { acceptedConfigRows, type AcceptedConfigRow } from './acceptedConfigRows.js';
import { ENV } from './badConfigRows.js';

/** What is read from the row's config, and its warnings, as the row's outcome is written. */
function outcomeOf(row: AcceptedConfigRow): string {
  const tree = validTree();
  row.edit(tree);
  const config = parseConfig(tree, 'test.yaml', row.env ?? ENV);
  const warnings = configWarnings(config, producedKinds(config.jobs)).map((warning) => `${warning.path}: ${warning.message}`);
  return `${JSON.stringify(row.read(config))}; ${warnings.join(' | ') || 'no warnings'}`;
}

describe('odd configs that must be accepted', () => {
  it.each(acceptedConfigRows)('$what', (row) => {
    expect(outcomeOf(row)).toMatch(row.outcome);
  });
});
