import { z } from 'zod';
import { dotPath, dotPathOrWhole } from './dotPath.js';
import { recordSkipSchema } from './recordSkipSchema.js';

const keyPart = z.union([dotPath, z.literal('$query')]);

export const recordSelectorSchema = z
  .strictObject({
    path: dotPathOrWhole.describe(
      "Where the items sit in the data, e.g. `results.artistmatches.artist`; `.` when the data is the list (Etherscan's `result`). An object there counts as one record (Last.fm sends a list of one that way), and so does a lone value under `key: $query` (`eth_blockNumber`'s `\"0x1b4\"`, stored as sent).",
    ),
    key: z
      .union([keyPart, z.array(keyPart).min(1)])
      .describe(
        "The record field that identifies it; `$query` stands for the query's `q` (or its fan-out value). A list makes a composite key such as `[$query, id]`: its parts joined with `|`, a `|` or `\\` within a part escaped with `\\` (`[a|b, c]` is `a\\|b|c`).",
      )
      .default('id'),
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/, 'must be lower case letters, digits and _')
      .describe('The kind of record, e.g. `artist`: with the source and the key it names one row of `records`, and `kinds.<kind>` gives it a typed view.'),
    onInvalid: z
      .enum(['fail', 'skip'])
      .meta({
        description:
          "What a record with no key (not an object, or no text or number at a key part) or one Postgres cannot take (a lone surrogate, a NUL in its key, nesting too deep) does: `fail` fails its page, naming it; `skip` keeps it in `dead_letters` (one with no key under an empty key) and stores the rest of the page.",
        examples: ['skip'],
      })
      .default('fail'),
    skip: recordSkipSchema
      .describe(
        "Records left out before their key is read: one condition, or a list of which any one is enough (Last.fm's track playing now has no date: `skip: {path: date, exists: false}`). Counted per run as filtered (`sync_runs.records_filtered`, the notice's `records.filtered`).",
      )
      .optional(),
  })
  .meta({ id: 'records', description: "Which items of a page's data are records, and what identifies each. Set on a job or a query; the query's fields win." });

export type RecordSelectorConfig = z.output<typeof recordSelectorSchema>;
