import { NamedStatement } from '../../database/NamedStatement.js';

export interface ReadFanOutValuesParams {
  source: string;
  kind: string;
  /** True: the record's key is the value; false: the payload at :path. */
  useKey: boolean;
  path: string[];
}

export interface FanOutValuesRow {
  /** Stored records of the kind (not marked deleted), whether they have the field or not. */
  records: number;
  values: string[];
}

/** Every distinct value of a field (or the key) among the stored records of a kind not marked deleted (a full refresh no longer returned them), in order. */
export const readFanOutValues = new NamedStatement<ReadFanOutValuesParams>(
  'feedsync_read_fan_out_values_v2',
  `select count(*)::int as records, coalesce(array_agg(distinct value order by value) filter (where value is not null and value <> ''), '{}') as values
    from (
      select case when :useKey::boolean then key else payload #>> :path::text[] end as value
      from records where source = :source::text and kind = :kind::text and deleted_at is null
    ) r`,
);
