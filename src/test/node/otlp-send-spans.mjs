// Sends spans to an OTLP/HTTP receiver the way an OpenTelemetry SDK exports them:
// node otlp-send-spans.mjs <endpoint> <protobuf|gzip|json>
// The spans are made by the OpenTelemetry JS SDK's own tracer (a remote parent with a trace
// state, a server span, a client child with every attribute type and an error status) and
// encoded by @opentelemetry/otlp-transformer's serializers, so the receiver is checked against
// the encoder an exporter uses. Prints one JSON line: the HTTP status, the decoded response,
// and the spans as the receiver should print them, taken from the SDK's spans and not from OTLP.
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, createTraceState, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const [endpoint, mode] = process.argv.slice(2);
if (!endpoint || !['protobuf', 'gzip', 'json'].includes(mode)) {
  process.stderr.write('usage: node otlp-send-spans.mjs <endpoint> <protobuf|gzip|json>\n');
  process.exit(2);
}

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'otlp-check', 'service.instance.id': 'check-1' }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const tracer = provider.getTracer('dev.sluice.otlp-check', '1.0.0');

// A caller's traceparent and tracestate, as a propagator would have extracted them.
const caller = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceFlags: 1,
  isRemote: true,
  traceState: createTraceState('vendor=opaque,other=1'),
});
const server = tracer.startSpan('POST /v1/dispatches', { kind: SpanKind.SERVER, attributes: { 'http.route': '/v1/dispatches' } }, caller);
const client = tracer.startSpan('callback attempt ✓', { kind: SpanKind.CLIENT }, trace.setSpan(caller, server));
client.setAttributes({
  'sluice.attempt': 2,
  'sluice.ratio': 0.25,
  'sluice.kept': false,
  'sluice.tags': ['a', 'b'],
  'sluice.sizes': [1, 20, 300],
});
client.setStatus({ code: SpanStatusCode.ERROR, message: 'receiver answered 503' });
client.end();
server.end();
const spans = exporter.getFinishedSpans();

const serializer = mode === 'json' ? JsonTraceSerializer : ProtobufTraceSerializer;
let body = serializer.serializeRequest(spans);
const headers = { 'Content-Type': mode === 'json' ? 'application/json' : 'application/x-protobuf' };
if (mode === 'gzip') {
  body = gzipSync(body);
  headers['Content-Encoding'] = 'gzip';
}
const response = await fetch(new URL('v1/traces', endpoint.endsWith('/') ? endpoint : endpoint + '/'), {
  method: 'POST',
  headers,
  body,
  signal: AbortSignal.timeout(10_000),
});
const answer = new Uint8Array(await response.arrayBuffer());

const nanos = ([seconds, fraction]) => (BigInt(seconds) * 1_000_000_000n + BigInt(fraction)).toString();
process.stdout.write(
  JSON.stringify({
    status: response.status,
    contentType: response.headers.get('content-type'),
    response: serializer.deserializeResponse(answer),
    spans: spans.map((span) => ({
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      parentSpanId: span.parentSpanContext?.spanId ?? '',
      name: span.name,
      kind: span.kind + 1, // OTLP counts SPAN_KIND_UNSPECIFIED as 0, the API does not
      startTimeUnixNano: nanos(span.startTime),
      endTimeUnixNano: nanos(span.endTime),
      status: { code: span.status.code, message: span.status.message ?? '' },
      attributes: span.attributes,
      resource: span.resource.attributes,
      scope: span.instrumentationScope.name,
      traceState: span.spanContext().traceState?.serialize() ?? '',
      // The W3C trace flags, then OTLP's "has is_remote" bit and "parent is remote" bit (trace.proto).
      flags: (span.spanContext().traceFlags & 0xff) | 0x100 | (span.parentSpanContext?.isRemote ? 0x200 : 0),
    })),
  }) + '\n',
);
