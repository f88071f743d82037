import { resolve } from 'node:path';
import { z } from 'zod';
import type { ConfigProblem } from '../ConfigError.js';
import { configWarnings, producedKinds } from '../configWarnings.js';
import { DEFAULT_CONFIG_FILE, parseTree } from './loadConfig.js';
import { readConfigFile } from './readConfigFile.js';
import { analyticsSchema, kindsSectionSchema, type AnalyticsConfig, type KindConfig } from '../analytics/kindsSchema.js';
import { isMapping } from './treeShape.js';
import { refineViewNames } from '../analytics/viewNames.js';

/** What the commands that make and check the kinds' views need of a config file. */
export interface AnalyticsSettings {
  kinds: Record<string, KindConfig>;
  analytics: AnalyticsConfig;
  /** Kinds declared that no job stores, and the like. */
  warnings: ConfigProblem[];
}

const analyticsSectionsSchema = z.object({ kinds: kindsSectionSchema, analytics: analyticsSchema.prefault({}) }).superRefine(refineViewNames);

/**
 * Reads only the `kinds` and `analytics` sections (and which kinds the jobs store, for the
 * warnings): `migrate` and `views check` need no upstream's variables.
 */
export async function loadAnalyticsSettings(file: string = DEFAULT_CONFIG_FILE, env: NodeJS.ProcessEnv = process.env): Promise<AnalyticsSettings> {
  const tree = await readConfigFile(resolve(file), file);
  const sections = isMapping(tree) ? tree : {};
  const settings = parseTree(analyticsSectionsSchema, { kinds: sections.kinds, analytics: sections.analytics }, file, env);
  const jobs = Array.isArray(sections.jobs) ? sections.jobs.filter(isMapping) : [];
  return { ...settings, warnings: configWarnings(settings, producedKinds(jobs)) };
}
