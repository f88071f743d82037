import { AlwaysOffSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { readTracingEnv, tracingAsked } from '../../../src/observability/tracing/tracingEnv.js';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracingAsked', () => {
  it('is off without an OTLP endpoint or exporter', () => {
    expect(tracingAsked({ OTEL_SERVICE_NAME: 'feedsync' })).toBe(false);
  });

  it('is on with an OTLP endpoint, for all signals or for traces', () => {
    expect(tracingAsked(ENDPOINT)).toBe(true);
    expect(tracingAsked({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
  });

  it('is on with OTEL_TRACES_EXPORTER=otlp alone (the default endpoint)', () => {
    expect(tracingAsked({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });

  it('is off when the SDK is disabled or the traces exporter is none, endpoint or not', () => {
    expect(tracingAsked({ ...ENDPOINT, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingAsked({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });
});

describe('readTracingEnv', () => {
  it('defaults to http/protobuf and a parent-based always-on sampler', () => {
    const read = readTracingEnv(ENDPOINT);
    expect(read.protocol).toBe('http/protobuf');
    expect(read.sampler).toBeInstanceOf(ParentBasedSampler);
    expect(read.sampler.toString()).toContain('AlwaysOnSampler');
  });

  it('takes the traces protocol over the general one', () => {
    expect(readTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
  });

  it('reads each sampler the specification names, with its ratio', () => {
    expect(readTracingEnv({ OTEL_TRACES_SAMPLER: 'always_off' }).sampler).toBeInstanceOf(AlwaysOffSampler);
    const ratio = readTracingEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).sampler;
    expect(ratio).toBeInstanceOf(TraceIdRatioBasedSampler);
    expect(ratio.toString()).toContain('0.25');
  });

  it('refuses gRPC, naming the variable and what to use instead', () => {
    expect(() => readTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json, got "grpc".*4318/);
  });

  it('refuses an unknown sampler or a ratio outside 0 to 1, naming the variable', () => {
    expect(() => readTracingEnv({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER must be one of .*, got "sometimes"/);
    expect(() => readTracingEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "2"/);
  });

  it('refuses a traces exporter other than otlp or none', () => {
    expect(() => readTracingEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER must be otlp or none, got "zipkin"/);
  });
});
