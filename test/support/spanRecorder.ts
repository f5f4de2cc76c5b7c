import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** A span as a test compares it: its name, kind, attributes, status, and its children in start order. */
export interface SpanNode {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: number;
  children: SpanNode[];
}

/** A span as it was started: its name and the attributes it was started with (what a sampler or processor sees). */
export interface SpanStart {
  name: string;
  attributes: Record<string, unknown>;
}

/**
 * Registers the OpenTelemetry SDK globally for one test file, or one describe block (an in-memory exporter behind a
 * simple processor), optionally with the async-hooks context manager, and removes both after it: test files
 * share their worker's globals (isolate: false). Gives the finished spans and the spans' starts (both emptied before
 * each test), and a reset.
 */
export function useSpanRecorder(options: { contextManager?: boolean } = {}): {
  spans: () => ReadableSpan[];
  started: () => SpanStart[];
  reset: () => void;
} {
  const exporter = new InMemorySpanExporter();
  const starts: SpanStart[] = [];
  const atStart: SpanProcessor = {
    onStart: (span) => void starts.push({ name: span.name, attributes: { ...span.attributes } }),
    onEnd: () => undefined,
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const reset = () => {
    exporter.reset();
    starts.splice(0);
  };
  beforeAll(() => {
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [atStart, new SimpleSpanProcessor(exporter)] }),
    );
    if (options.contextManager === true)
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  beforeEach(reset);
  afterAll(() => {
    trace.disable();
    if (options.contextManager === true) context.disable();
  });
  return { spans: () => exporter.getFinishedSpans(), started: () => [...starts], reset };
}

const startOf = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];

/**
 * The spans as trees (roots: spans whose parent is not among them), children in start order; ids and
 * timings left out, and `omit` attributes too (a run's random id).
 */
export function spanTrees(spans: readonly ReadableSpan[], omit: readonly string[] = []): SpanNode[] {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const ordered = [...spans].sort((a, b) => startOf(a) - startOf(b));
  const node = (span: ReadableSpan): SpanNode => ({
    name: span.name,
    kind: span.kind,
    attributes: Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !omit.includes(key))),
    status: span.status.code,
    children: ordered.filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId).map(node),
  });
  return ordered.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? '')).map(node);
}

/** The spans' names as an indented outline, one per line: a readable picture of the tree. */
export function outline(trees: readonly SpanNode[], depth = 0): string[] {
  return trees.flatMap((tree) => [`${'  '.repeat(depth)}${tree.name}`, ...outline(tree.children, depth + 1)]);
}
