import type pg from 'pg';
import { readFanOutValues, type FanOutValuesRow } from './statements/readFanOutValues.js';

/** What a fan-out over stored records found: the records of the kind, and the distinct values among them. */
export interface FoundValues {
  records: number;
  values: string[];
}

/** Reads the values a fan-out query runs for from the stored records (see forEach). */
export class FanOutValues {
  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  /** Every distinct value of `path` in the payloads (or of the keys, with `path` undefined) of the stored records of a kind. */
  async of(source: string, kind: string, path: string | undefined): Promise<FoundValues> {
    const { rows } = await this.pool.query<FanOutValuesRow>(readFanOutValues.with({ source, kind, useKey: path === undefined, path: path?.split('.') ?? [] }));
    return { records: rows[0]?.records ?? 0, values: rows[0]?.values ?? [] };
  }
}
