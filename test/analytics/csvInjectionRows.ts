/**
 * Record keys a spreadsheet would run as a formula (CSV injection), one a row, with the cell
 * `feedsync export --format csv` must write for them. changeFormats.test.ts runs them.
 */
export const csvInjectionRows: { what: string; key: string; cell: string }[] = [
  { what: 'a formula', key: '=HYPERLINK("http://evil","x")', cell: `"'=HYPERLINK(""http://evil"",""x"")"` },
  { what: 'a sum', key: '=1+2', cell: "'=1+2" },
  { what: 'a leading plus', key: '+1+cmd|/C calc', cell: "'+1+cmd|/C calc" },
  { what: 'a leading minus', key: '-2+3', cell: "'-2+3" },
  { what: 'a leading at sign', key: '@SUM(A1:A2)', cell: "'@SUM(A1:A2)" },
  { what: 'a leading tab', key: '\t=1', cell: "'\t=1" },
  { what: 'a leading carriage return', key: '\r=1', cell: `"'\r=1"` },
  { what: 'a formula with a comma', key: '=A1,B1', cell: `"'=A1,B1"` },
];
