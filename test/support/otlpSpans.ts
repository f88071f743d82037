import type { ReceivedRequest } from './testReceiver.js';

/** A span as an OTLP/JSON export request carries it, its attributes flattened. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  /** Of the resource that exported it. */
  serviceName: string;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { spans?: (Omit<ExportedSpan, 'attributes' | 'serviceName'> & { attributes?: { key: string; value: OtlpValue }[] })[] }[];
  }[];
}

const valueOf = (value: OtlpValue): string | number | boolean => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue ?? ''));

const attributesOf = (list: { key: string; value: OtlpValue }[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

/** Every span of the OTLP/JSON trace export requests a receiver took (`/v1/traces`). */
export function exportedSpans(received: readonly ReceivedRequest[]): ExportedSpan[] {
  return received.flatMap((request) =>
    ((JSON.parse(request.body) as OtlpRequest).resourceSpans ?? []).flatMap((resourceSpans) => {
      const serviceName = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
        (scope.spans ?? []).map((span) => ({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          status: span.status ?? {},
          serviceName,
        })),
      );
    }),
  );
}

/** The spans from `span` up to its trace's root, nearest first (as far as the spans go). */
export function ancestorsOf(span: ExportedSpan, spans: readonly ExportedSpan[]): ExportedSpan[] {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  const chain: ExportedSpan[] = [];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

/** The environment that makes a feedsync process export its spans to `receiverUrl` as OTLP/JSON. */
export function otlpEnv(receiverUrl: string): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'feedsync-under-test' };
}
