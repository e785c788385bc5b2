import { context, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import { env } from "./env.server";

/**
 * OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK is not even loaded
 * then, and every span helper returns undefined at the cost of one comparison). Spans go to the
 * collector over OTLP/HTTP in batches; the exporter reads the standard OTEL_* variables (headers,
 * a traces-only endpoint, batch delays). No global provider or context manager is installed: the
 * relay hands each child its parent span, so no async-context tracking runs per request.
 */
let tracer: Tracer | undefined;
let stop: (() => Promise<void>) | undefined;

export async function startTracing(): Promise<void> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || tracer) return;
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  tracer = provider.getTracer("switchyard");
  stop = () => provider.shutdown();
  console.log(`[tracing] spans go to ${env.OTEL_EXPORTER_OTLP_ENDPOINT} (OTLP/HTTP) as ${env.OTEL_SERVICE_NAME}`);
}

/** Sends what is batched and stops (at shutdown); bounded, a collector that is away does not hold the stop. */
export async function stopTracing(): Promise<void> {
  const stopping = stop?.();
  tracer = undefined;
  stop = undefined;
  if (stopping) await Promise.race([stopping.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
}

/** A span, as a child of `parent` when given; undefined while tracing is off. */
export function startSpan(name: string, attributes: Attributes, parent?: Span): Span | undefined {
  if (!tracer) return undefined;
  return tracer.startSpan(name, { attributes }, parent ? trace.setSpan(context.active(), parent) : undefined);
}

/** Ends a span, marked as an error with `message` when the step failed. */
export function endSpan(span: Span | undefined, failure?: string): void {
  if (!span) return;
  if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}
