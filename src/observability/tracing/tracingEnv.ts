import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';

/** The OTLP wire formats feedsync exports spans in; `grpc` needs a gRPC stack feedsync does not ship. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What the standard OpenTelemetry variables ask of tracing, read once. */
export interface TracingEnv {
  protocol: OtlpProtocol;
  sampler: Sampler;
}

const env = (vars: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = vars[name]?.trim();
  return value === '' ? undefined : value;
};

/**
 * Whether the environment asks for traces: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or `OTEL_TRACES_EXPORTER=otlp`, and not
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Off, no span is recorded and the
 * OpenTelemetry API's no-op tracer costs next to nothing.
 */
export function tracingAsked(vars: NodeJS.ProcessEnv = process.env): boolean {
  if (env(vars, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return false;
  const exporter = env(vars, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporter === 'none') return false;
  return exporter === 'otlp' || env(vars, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined || env(vars, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined;
}

/** The sampler of `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, as the specification names them; default parentbased_always_on. */
function samplerOf(vars: NodeJS.ProcessEnv): Sampler {
  const name = env(vars, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  const ratio = (): number => {
    const arg = env(vars, 'OTEL_TRACES_SAMPLER_ARG');
    if (arg === undefined) return 1;
    const value = Number(arg);
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${arg}"`);
    return value;
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      throw new Error(
        `OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "${name}"`,
      );
  }
}

/** The protocol of `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`; default http/protobuf. */
function protocolOf(vars: NodeJS.ProcessEnv): OtlpProtocol {
  const variable = env(vars, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env(vars, variable) ?? 'http/protobuf';
  if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
  const hint = protocol === 'grpc' ? ' (feedsync exports over HTTP: a collector takes http/protobuf on port 4318)' : '';
  throw new Error(`${variable} must be http/protobuf or http/json, got "${protocol}"${hint}`);
}

/** Reads the tracing variables; throws an error naming the variable that is wrong. */
export function readTracingEnv(vars: NodeJS.ProcessEnv = process.env): TracingEnv {
  const exporter = env(vars, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporter !== undefined && exporter !== 'otlp' && exporter !== 'none') throw new Error(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  return { protocol: protocolOf(vars), sampler: samplerOf(vars) };
}
