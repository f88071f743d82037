/** pg's query config for a prepared statement. */
export interface PreparedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * A SQL statement written with `:name` parameters, compiled once to pg's `$n` placeholders and
 * prepared under `name` on each connection (so Postgres plans it once). `::type` casts are left
 * alone; a `:name` inside a string literal is not supported.
 */
export class NamedStatement<Params extends object> {
  readonly text: string;
  /** Parameter names in `$n` order. */
  readonly parameters: readonly (keyof Params & string)[];

  constructor(
    readonly name: string,
    sql: string,
  ) {
    const order: string[] = [];
    this.text = sql.replace(/(?<![:\w]):([A-Za-z_]\w*)/g, (_, parameter: string) => {
      let at = order.indexOf(parameter);
      if (at === -1) at = order.push(parameter) - 1;
      return `$${at + 1}`;
    });
    this.parameters = order as (keyof Params & string)[];
  }

  /** The statement with these values, ready for `pool.query`; a parameter given as undefined is sent as null. */
  with(params: Params): PreparedQuery {
    const values = this.parameters.map((parameter) => {
      // A misspelt :name in the SQL would otherwise write nulls without a word.
      if (!(parameter in params)) throw new Error(`statement ${this.name} needs :${parameter}, which was not given`);
      return params[parameter] ?? null;
    });
    return { name: this.name, text: this.text, values };
  }
}
