import { NamedStatement } from '../../storage/database/NamedStatement.js';

export interface ReadRecordLeavesParams {
  kind: string;
  source: string | null;
  sample: number;
}

/** One value in one sampled record: its path, its JSON type, and its text (numbers exactly as stored). */
export interface RecordLeafRow {
  record: string;
  path: string[];
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  text: string | null;
}

/** Every value of the kind's latest `sample` live records, objects walked into, arrays taken whole. */
export const readRecordLeaves = new NamedStatement<ReadRecordLeavesParams>(
  'feedsync_read_record_leaves_v1',
  `with recursive sampled as (
      select source || '/' || key as record, payload from records
      where kind = :kind::text and (:source::text is null or source = :source::text) and deleted_at is null
      order by change_seq desc limit :sample::int
    ),
    leaves(record, path, value) as (
      select s.record, array[e.key], e.value from sampled s, jsonb_each(case when jsonb_typeof(s.payload) = 'object' then s.payload else '{}' end) e
      union all
      select l.record, l.path || e.key, e.value from leaves l, jsonb_each(l.value) e where jsonb_typeof(l.value) = 'object'
    )
    select record, path, jsonb_typeof(value) as type, case when jsonb_typeof(value) in ('string', 'number', 'boolean') then value #>> '{}' end as text
    from leaves`,
);
