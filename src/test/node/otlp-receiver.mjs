// An OTLP/HTTP trace receiver, as a tracing backend runs one: node otlp-receiver.mjs [port]
// Listens on 127.0.0.1 (port 0 or none: an ephemeral one) and prints {"port": N} once it does.
// Takes POST /v1/traces as application/x-protobuf (what the Java SDK's http/protobuf exporter
// sends) or application/json (OTLP/JSON), gzip or not, and prints one JSON line per span it
// received. The protobuf is decoded by the code protobufjs generated from the OTLP .proto files,
// as @opentelemetry/otlp-transformer ships it; nothing here parses protobuf by hand.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const { opentelemetry } = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const { ExportTraceServiceRequest, ExportTraceServiceResponse } = opentelemetry.proto.collector.trace.v1;

// A body, sent or unpacked, larger than this is refused: a gzip bomb must not take the test's memory.
const MAX_BODY = 16 * 1024 * 1024;
const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');

const server = createServer(async (request, response) => {
  const answer = (status, type, body, headers = {}) => {
    response.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length, ...headers });
    response.end(body);
  };
  try {
    if (new URL(request.url, 'http://receiver').pathname !== '/v1/traces') throw new Refusal(404, 'no such path');
    if (request.method !== 'POST') throw new Refusal(405, `method ${request.method}`);
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== PROTOBUF && type !== JSON_TYPE) throw new Refusal(415, `content type "${type}"`);
    const body = unpack(await read(request), request.headers['content-encoding']);
    const decoded = type === PROTOBUF ? fromProtobuf(body) : fromJson(body);
    for (const span of spans(decoded)) print(span);
    if (type === PROTOBUF) answer(200, PROTOBUF, ExportTraceServiceResponse.encode({}).finish());
    else answer(200, JSON_TYPE, Buffer.from('{}'));
  } catch (e) {
    const status = e instanceof Refusal ? e.status : 400;
    process.stderr.write(`otlp-receiver: ${request.method} ${request.url}: ${status}: ${e.message}\n`);
    // The rest of a refused body is drained, so that the sender reads the answer, on a
    // connection that then closes: a sender that never stops gets no more than requestTimeout.
    request.resume();
    answer(status, 'text/plain', Buffer.from(e.message), { Connection: 'close' });
  }
});
server.requestTimeout = 30_000;

async function read(request) {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY) throw new Refusal(413, 'body over 16 MiB');
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, 'body over 16 MiB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function unpack(body, header = 'identity') {
  const encoding = header.trim().toLowerCase();
  if (encoding === 'identity') return body;
  if (encoding !== 'gzip') throw new Refusal(415, `content encoding "${encoding}"`);
  try {
    return gunzipSync(body, { maxOutputLength: MAX_BODY });
  } catch (e) {
    if (e.code === 'ERR_BUFFER_TOO_LARGE') throw new Refusal(413, 'unpacked body over 16 MiB');
    throw new Refusal(400, `gzip: ${e.message}`);
  }
}

// Longs as decimal strings and bytes as they are: the same shape OTLP/JSON has, ids aside.
function fromProtobuf(body) {
  return ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: String, enums: Number });
}

function fromJson(body) {
  return JSON.parse(body.toString('utf8'));
}

function* spans(request) {
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        yield {
          traceId: id(span.traceId),
          spanId: id(span.spanId),
          parentSpanId: id(span.parentSpanId),
          name: span.name ?? '',
          kind: span.kind ?? 0,
          startTimeUnixNano: String(span.startTimeUnixNano ?? '0'),
          endTimeUnixNano: String(span.endTimeUnixNano ?? '0'),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
          attributes: attributes(span.attributes),
          resource,
          scope: scopeSpans.scope?.name ?? '',
          traceState: span.traceState ?? '',
          flags: span.flags ?? 0,
        };
      }
    }
  }
}

// Protobuf carries ids as bytes, OTLP/JSON as hex: both are printed as lowercase hex.
function id(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value.toLowerCase() : Buffer.from(value).toString('hex');
}

function attributes(keyValues = []) {
  return Object.fromEntries(keyValues.map((kv) => [kv.key, value(kv.value)]));
}

function value(any = {}) {
  if ('stringValue' in any) return any.stringValue;
  if ('boolValue' in any) return any.boolValue;
  if ('intValue' in any) {
    const n = Number(any.intValue);
    return Number.isSafeInteger(n) ? n : String(any.intValue);
  }
  if ('doubleValue' in any) return Number(any.doubleValue);
  if ('arrayValue' in any) return (any.arrayValue.values ?? []).map(value);
  if ('kvlistValue' in any) return attributes(any.kvlistValue.values);
  if ('bytesValue' in any) {
    return typeof any.bytesValue === 'string' ? any.bytesValue : Buffer.from(any.bytesValue).toString('base64');
  }
  return null;
}

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => print({ port: server.address().port }));
