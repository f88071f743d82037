/** The three faulty upstreams; the admin endpoint has no faults. Apart, so the CLI can name them without loading the simulator. */
export const ENDPOINTS = ['music', 'explorer', 'webhook'] as const;
export type EndpointName = (typeof ENDPOINTS)[number];
