/** A batch as one array per column, named: `columns[name][i]` is the i-th input's value. */
export function columnsOf<Input, Columns extends { [Name in keyof Columns]: unknown[] }>(
  inputs: readonly Input[],
  row: (input: Input) => { [Name in keyof Columns]: Columns[Name][number] },
): Columns {
  const columns: Record<string, unknown[]> = {};
  for (const input of inputs) {
    for (const [name, value] of Object.entries(row(input))) (columns[name] ??= []).push(value);
  }
  return columns as Columns;
}
