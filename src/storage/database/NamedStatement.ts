import { isTextArray, textArrayBytes } from './textArrayBytes.js';
import { fastPathOn } from '../../config/fastPaths.js';

/** pg's query config for a prepared statement. */
export interface PreparedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * A SQL statement written with `:name` parameters, compiled once to pg's `$n` placeholders and
 * prepared under `name` on each connection (so Postgres plans it once). `::type` casts are left
 * alone; a `:name` inside a string literal is not supported. A parameter cast `::text[]` (spelt
 * so) whose value holds only strings and nulls is sent in binary (see textArrayBytes): a page's
 * keys and hashes travel as one.
 */
export class NamedStatement<Params extends object> {
  readonly text: string;
  /** Parameter names in `$n` order. */
  readonly parameters: readonly (keyof Params & string)[];
  /** The parameters cast `::text[]`, by position. */
  private readonly textArrays: readonly boolean[];

  constructor(
    readonly name: string,
    sql: string,
  ) {
    const order: string[] = [];
    const textArrays: boolean[] = [];
    this.text = sql.replace(/(?<![:\w]):([A-Za-z_]\w*)(?=(::text\[\])?)/g, (_, parameter: string, textArray: string | undefined) => {
      let at = order.indexOf(parameter);
      if (at === -1) at = order.push(parameter) - 1;
      if (textArray) textArrays[at] = true;
      return `$${at + 1}`;
    });
    this.parameters = order as (keyof Params & string)[];
    this.textArrays = order.map((_, at) => textArrays[at] === true);
  }

  /** The statement with these values, ready for `pool.query`; a parameter given as undefined is sent as null. */
  with(params: Params): PreparedQuery {
    const values = this.parameters.map((parameter, at) => {
      // A misspelt :name in the SQL would otherwise write nulls without a word.
      if (!(parameter in params)) throw new Error(`statement ${this.name} needs :${parameter}, which was not given`);
      const value = params[parameter] ?? null;
      return this.textArrays[at] && isTextArray(value) && fastPathOn('binaryTextArrays') ? textArrayBytes(value) : value;
    });
    return { name: this.name, text: this.text, values };
  }
}
