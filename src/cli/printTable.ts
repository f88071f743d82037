import { printableLine } from './terminalText.js';

/** Renders rows as a plain aligned text table for a terminal; cells may hold upstream text, so each is made printable. */
export function formatTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : printableLine(String(cell)))));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n') + '\n';
}
