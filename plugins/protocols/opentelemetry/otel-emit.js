// SPDX-License-Identifier: GPL-2.0-or-later
// Emits log records through the OpenTelemetry JavaScript SDK to each target
// given as EXPORTER=URL (exporter: grpc, proto or http), then exits 0 only
// if every export was answered success.
//   node otel-emit.js COUNT grpc=http://127.0.0.1:4317 proto=http://127.0.0.1:4318/v1/logs ...
// An exporter+gzip compresses. Record i of a target labelled L (the exporter's
// name, with "gz" after it when compressed) has body "L record i", severity by
// i, the attributes L.index=i, L.even=(i%2==0), L.ratio=i/4, L.tags=[L, "x"],
// and the resource attributes service.name=otel-emit, host.name=emit-host,
// run.kind=L.
'use strict';
const { LoggerProvider, BatchLogRecordProcessor } = require('@opentelemetry/sdk-logs');
const { resourceFromAttributes } = require('@opentelemetry/resources');

const exporters = {
  grpc: require('@opentelemetry/exporter-logs-otlp-grpc').OTLPLogExporter,
  proto: require('@opentelemetry/exporter-logs-otlp-proto').OTLPLogExporter,
  http: require('@opentelemetry/exporter-logs-otlp-http').OTLPLogExporter,
};
const severities = [[5, 'DEBUG'], [9, 'INFO'], [13, 'WARN'], [17, 'ERROR'], [21, 'FATAL']];

async function emit(kind, url, count, compression) {
  const label = compression === 'gzip' ? `${kind}gz` : kind;
  const inner = new exporters[kind]({ url, compression });
  let failures = 0;
  const checked = {
    export(logs, done) {
      inner.export(logs, (result) => {
        if (result.code !== 0) {
          failures++;
          console.error(`${label}: export failed: ${result.error}`);
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
  };
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'otel-emit', 'host.name': 'emit-host', 'run.kind': label }),
    processors: [new BatchLogRecordProcessor({ exporter: checked, maxExportBatchSize: 100, scheduledDelayMillis: 50 })],
  });
  const logger = provider.getLogger('otel-emit-scope', '1.2.3');
  for (let i = 0; i < count; i++) {
    const [severityNumber, severityText] = severities[i % severities.length];
    logger.emit({
      body: `${label} record ${i}`,
      severityNumber,
      severityText,
      timestamp: new Date(1700000000000 + i),
      attributes: { [`${label}.index`]: i, [`${label}.even`]: i % 2 === 0, [`${label}.ratio`]: i / 4,
                    [`${label}.tags`]: [label, 'x'] },
    });
  }
  await provider.shutdown();
  return failures;
}

async function main() {
  const [count, ...targets] = process.argv.slice(2);
  let failures = 0;
  for (const target of targets) {
    const [spec, url] = target.split(/=(.*)/s);
    const [kind, compression] = spec.split('+');
    failures += await emit(kind, url, Number(count), compression || 'none');
  }
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.error(e); process.exit(2); });
