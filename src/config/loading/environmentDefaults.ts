/** Settings that, when the file leaves them out, come from an environment variable if it is set. */
const FROM_ENVIRONMENT: readonly { section: string; key: string; variable: string }[] = [
  // A container image sets these, so its HTTP port is reachable whatever config it runs.
  { section: 'worker', key: 'httpHost', variable: 'FEEDSYNC_HTTP_HOST' },
  { section: 'worker', key: 'httpPort', variable: 'FEEDSYNC_HTTP_PORT' },
];

/** The config tree with the environment's values for the settings it leaves out; validated afterwards like the rest. */
export function withEnvironmentDefaults(tree: unknown, env: NodeJS.ProcessEnv): unknown {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) return tree;
  const filled: Record<string, unknown> = { ...tree };
  for (const { section, key, variable } of FROM_ENVIRONMENT) {
    const value = env[variable];
    const current = filled[section] ?? {};
    // Set but empty is unset, as `${NAME:-default}` in the file takes it: an empty host would listen on every interface.
    if (value === undefined || value === '' || current === null || typeof current !== 'object' || key in current) continue;
    filled[section] = { ...current, [key]: value };
  }
  return filled;
}
