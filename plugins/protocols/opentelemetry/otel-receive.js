// SPDX-License-Identifier: GPL-2.0-or-later
// An OTLP logs receiver on the official proto definitions through real
// server stacks: gRPC with @grpc/grpc-js and @grpc/proto-loader, HTTP with
// node's http and protobufjs (gzip bodies too). Every record is appended to
// OUT as one JSON line before its request is answered, so an answered
// record is on disk; "ready" is printed once both servers listen. An
// answer waits DELAY_MS (0) after the records are written, so that a
// test can kill the receiver while requests are on their way. On stdout,
// "connection" for each HTTP/2 connection the gRPC server accepted, and
// "concurrent N" each time more calls than before were open at once since
// the last connection came. A gRPC
// request whose first record's body starts "status-N-" is answered with
// gRPC status N and not written: every time for 3 (INVALID_ARGUMENT),
// the first time only for others. A gRPC record carries the request's
// x-api-key metadata as apiKey.
//   node otel-receive.js PROTO_DIR GRPC_PORT HTTP_PORT OUT [DELAY_MS]
'use strict';
const fs = require('fs');
const http = require('http');
const http2 = require('http2');
const path = require('path');
const zlib = require('zlib');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const [protoDir, grpcPort, httpPort, out, delay] = process.argv.slice(2);
const later = (answer) => setTimeout(answer, Number(delay || 0));
const SERVICE = 'opentelemetry/proto/collector/logs/v1/logs_service.proto';

function anyValue(v) {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return { int: String(v.intValue) };
  if (v.doubleValue !== undefined) return { double: v.doubleValue };
  if (v.bytesValue !== undefined) return { bytes: Buffer.from(v.bytesValue).toString('base64') };
  if (v.arrayValue) return (v.arrayValue.values || []).map(anyValue);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  return null;
}

function attributes(kvs) {
  const o = {};
  for (const kv of kvs || []) o[kv.key] = anyValue(kv.value);
  return o;
}

const hex = (b) => (b && b.length ? Buffer.from(b).toString('hex') : undefined);

// Both stacks hand over plain objects with the proto's camelCase names.
function record(via, request, apiKey) {
  const lines = [];
  for (const rl of request.resourceLogs || []) {
    for (const sl of rl.scopeLogs || []) {
      for (const r of sl.logRecords || []) {
        lines.push(JSON.stringify({
          via,
          apiKey,
          resource: attributes(rl.resource && rl.resource.attributes),
          resourceDropped: (rl.resource && rl.resource.droppedAttributesCount) || undefined,
          resourceSchemaUrl: rl.schemaUrl || undefined,
          scope: sl.scope ? { name: sl.scope.name, version: sl.scope.version } : null,
          scopeAttributes: sl.scope && sl.scope.attributes ? attributes(sl.scope.attributes) : undefined,
          scopeDropped: (sl.scope && sl.scope.droppedAttributesCount) || undefined,
          scopeSchemaUrl: sl.schemaUrl || undefined,
          time: String(r.timeUnixNano || 0),
          observed: String(r.observedTimeUnixNano || 0),
          severity: Number(r.severityNumber || 0),
          severityText: r.severityText || undefined,
          body: anyValue(r.body),
          attributes: attributes(r.attributes),
          dropped: r.droppedAttributesCount || undefined,
          flags: r.flags || undefined,
          traceId: hex(r.traceId),
          spanId: hex(r.spanId),
        }));
      }
    }
  }
  if (lines.length) fs.appendFileSync(out, lines.join('\n') + '\n');
}

// grpc-js makes its server with http2.createServer() when it binds
const createServer = http2.createServer;
let open = 0;
let most = 0;
http2.createServer = (...args) => createServer(...args).on('session', () => {
  most = 0;
  console.log('connection');
});
const refused = new Set();

function statusAsked(request) {
  const rl = (request.resourceLogs || [])[0];
  const sl = rl && (rl.scopeLogs || [])[0];
  const r = sl && (sl.logRecords || [])[0];
  const body = r && anyValue(r.body);
  const m = typeof body === 'string' && /^status-(\d+)-/.exec(body);
  if (!m) return 0;
  const code = Number(m[1]);
  if (code !== grpc.status.INVALID_ARGUMENT && refused.has(body)) return 0;
  refused.add(body);
  return code;
}

const definition = protoLoader.loadSync(SERVICE, {
  includeDirs: [protoDir], longs: String, enums: Number, bytes: Buffer, defaults: false, oneofs: false,
});
const { LogsService } = grpc.loadPackageDefinition(definition).opentelemetry.proto.collector.logs.v1;
const server = new grpc.Server();
server.addService(LogsService.service, {
  Export(call, callback) {
    if (++open > most) console.log(`concurrent ${(most = open)}`);
    const answer = (...a) => later(() => { open--; callback(...a); });
    const code = statusAsked(call.request);
    if (code) {
      answer({ code, details: `asked for status ${code}` });
      return;
    }
    record('grpc', call.request, call.metadata.get('x-api-key')[0]);
    answer(null, {});
  },
});

const root = new protobuf.Root();
root.resolvePath = (origin, target) => path.join(protoDir, target);
root.loadSync(SERVICE);
const Request = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
const Response = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse');
const web = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/logs') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
    const message = Request.decode(body);
    record('http', Request.toObject(message, { longs: String, enums: Number, bytes: Buffer, defaults: false }));
    later(() => {
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
      res.end(Buffer.from(Response.encode(Response.create({})).finish()));
    });
  });
});

server.bindAsync(`127.0.0.1:${grpcPort}`, grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) throw err;
  web.listen(Number(httpPort), '127.0.0.1', () => console.log('ready'));
});
