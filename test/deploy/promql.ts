/**
 * The metric names a PromQL expression reads: its identifiers that start with `prefix`, once
 * string literals, label matchers (`{…}`), ranges and subqueries (`[…]`) and the label lists of
 * `by`, `without`, `on`, `ignoring`, `group_left` and `group_right` are taken out, and leaving out
 * function names (an identifier followed by `(`). Grafana's `$variables` sit in those parts only.
 */
export function promqlMetricNames(expr: string, prefix = 'feedsync_'): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w:$])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (match[2] === undefined && match[1]!.startsWith(prefix)) names.add(match[1]!);
  }
  return [...names];
}
