// A Chromium performance trace around a measured window (CDP Tracing, devtools.timeline categories), and the
// renderer main thread's time in it split as DevTools does: scripting (event handlers, animation frames,
// timers, V8 runs) and rendering (style, layout, paint, layerize, commit). Each event's self time counts
// (its duration minus the traced events nested in it), so a Layout forced inside a handler is rendering and
// the handler keeps only the rest.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'toplevel',
];

const SCRIPTING = new Set([
  'FunctionCall',
  'FireAnimationFrame',
  'EventDispatch',
  'TimerFire',
  'EvaluateScript',
  'RunMicrotasks',
  'FireIdleCallback',
  'XHRReadyStateChange',
  'XHRLoad',
  'v8.run',
  'v8.execute',
  'V8.Execute',
  'v8.callFunction',
  'MajorGC',
  'MinorGC',
  'V8.GCScavenger',
  'V8.GCFinalizeMC',
]);

const RENDERING = new Set([
  'UpdateLayoutTree',
  'RecalculateStyles',
  'Layout',
  'PrePaint',
  'Paint',
  'PaintImage',
  'Layerize',
  'UpdateLayer',
  'UpdateLayerTree',
  'CompositeLayers',
  'Commit',
  'ScrollLayer',
  'HitTest',
  'IntersectionObserverController::computeIntersections',
  'Decode Image',
  'Draw LazyPixelRef',
]);

export interface MainThreadTime {
  /** Scripting self time on the renderer main thread, ms. */
  scriptingMs: number;
  /** Rendering self time on the renderer main thread, ms. */
  renderingMs: number;
  /** Wall time the trace covered, ms. */
  spanMs: number;
  /** Frames the compositor drew (DrawFrame events) while tracing. */
  drawnFrames: number;
}

/**
 * Runs `measure` inside a trace of the page the session belongs to and returns its main-thread split. With
 * BENCH_TRACE_DIR set, the trace is also written there as `<label>.json` (DevTools › Performance › Load profile).
 */
export async function traced<T>(
  cdp: CDPSession,
  measure: () => Promise<T>,
  label = 'trace',
): Promise<{ result: T; time: MainThreadTime }> {
  const events: TraceEvent[] = [];
  const onData = (payload: { value: object[] }) => {
    events.push(...(payload.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: CATEGORIES },
  });
  let result: T;
  try {
    result = await measure();
  } finally {
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', onData);
  }
  const dir = process.env.BENCH_TRACE_DIR;
  if (dir) {
    await mkdir(dir, { recursive: true });
    const file = `${label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.json`;
    await writeFile(path.join(dir, file), JSON.stringify({ traceEvents: events }));
  }
  return { result, time: mainThreadTime(events) };
}

/** The renderer main thread with the most traced work is the page's (other renderers sit idle). */
function mainThreadTime(events: TraceEvent[]): MainThreadTime {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, { start: number; end: number; name: string }[]>();
  const open = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key) || !(SCRIPTING.has(e.name) || RENDERING.has(e.name))) continue;
    const list = byThread.get(key) ?? [];
    byThread.set(key, list);
    if (e.ph === 'X' && typeof e.dur === 'number') list.push({ start: e.ts, end: e.ts + e.dur, name: e.name });
    else if (e.ph === 'B') open.set(key, [...(open.get(key) ?? []), e]);
    else if (e.ph === 'E') {
      const stack = open.get(key) ?? [];
      const begin = stack.pop();
      if (begin) list.push({ start: begin.ts, end: e.ts, name: begin.name });
    }
  }
  let busiest: { start: number; end: number; name: string }[] = [];
  for (const list of byThread.values()) if (list.length > busiest.length) busiest = list;

  busiest.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = busiest.map((slice) => ({ ...slice, child: 0 }));
  const stack: typeof self = [];
  for (const slice of self) {
    while (stack.length > 0 && (stack[stack.length - 1]?.end ?? 0) <= slice.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.child += Math.min(slice.end, parent.end) - slice.start;
    stack.push(slice);
  }
  let scripting = 0;
  let rendering = 0;
  for (const slice of self) {
    const own = Math.max(0, slice.end - slice.start - slice.child);
    if (SCRIPTING.has(slice.name)) scripting += own;
    else rendering += own;
  }
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const e of events) {
    if (e.ph === 'M' || !(e.ts > 0)) continue;
    first = Math.min(first, e.ts);
    last = Math.max(last, e.ts + (e.dur ?? 0));
  }
  const spanUs = last > first ? last - first : 0;
  return {
    scriptingMs: scripting / 1000,
    renderingMs: rendering / 1000,
    spanMs: spanUs / 1000,
    drawnFrames: events.filter(
      (e) => e.name === 'DrawFrame' && (e.ph === 'X' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b'),
    ).length,
  };
}
