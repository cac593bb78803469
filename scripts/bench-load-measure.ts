// bench:load (scripts/bench-load.ts): driving the mix (autocannon or wrk), measuring it and printing the figures.
import type { EventEmitter } from 'node:events';
import os from 'node:os';

import autocannon from 'autocannon';

import type { Shape } from './bench-load-mix.ts';
import type { Session } from './bench-load-seed.ts';
import { type cpuClock, mb } from './bench-server.ts';
import { driveWithWrk, type PreparedRequest } from './bench-wrk.ts';

/** What one run of the mix measured, whichever generator drove it. */
export interface MixRun {
  requests: number;
  durationS: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null; max: number | null; mean: number };
  statuses: Record<string, number>;
  failedRequests: number;
  /** Answers other than 2xx and 3xx; wrk does not tell 4xx from 5xx (null then). */
  statusErrors: number;
  status4xx: number | null;
  status5xx: number | null;
  timeouts: number;
  counts: Record<string, number>;
  latencyByRouteMs: Record<string, { p50: number | null; p99: number | null }>;
  generatorCpuMs: number;
}

/** The latency at fraction `p` of a sorted list, in ms with one decimal. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(1) : null;
export const perRequest = (ms: number, requests: number) => (requests ? +(ms / requests).toFixed(3) : null);
/** CPU used since the clocks were made, summed over the nodes; null without a server of our own. */
export const sumCpu = (clocks: ReturnType<typeof cpuClock>[]) =>
  clocks.length
    ? clocks.map((c) => c.read()).reduce((a, b) => ({ server: a.server + b.server, database: a.database + b.database }))
    : null;

/**
 * Drives `connections` keep-alive connections for `seconds` with autocannon: connection number n is the person
 * `personFor(n)` (a signed-in session, or null for a visitor) and each of its requests is `choose(person)`.
 */
export async function drive(opts: {
  url: string;
  connections: number;
  seconds: number;
  timeoutS: number;
  personFor: (connectionNo: number) => Session | null;
  choose: (person: Session | null) => Shape;
}) {
  let connectionNo = 0;
  let counter = 0;
  const counts: Record<string, number> = {};
  const latencies: number[] = [];
  /** Latencies by kind of request: where the slow tail of the mix comes from. */
  const latenciesByShape: Record<string, number[]> = {};
  const statuses: Record<string, number> = {};
  const generatorStart = process.cpuUsage();
  const run = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: opts.timeoutS,
    initialContext: {},
    requests: [
      {
        setupRequest: (req, ctx) => {
          const context = ctx as Record<string, unknown>;
          if (context.session === undefined) context.session = opts.personFor(connectionNo++);
          const session = context.session as Session | null;
          const shape = opts.choose(session);
          const made = shape.make(session, counter++);
          counts[shape.name] = (counts[shape.name] ?? 0) + 1;
          context.shape = shape.name;
          return {
            ...req,
            method: (made.method ?? 'GET') as 'GET',
            path: made.path,
            headers: made.headers,
            body: made.body as string | undefined,
          };
        },
      },
    ],
  });
  // autocannon's promise is also its event emitter (its type says only Promise).
  // One request at a time per connection: when its answer is reported, the connection's context still names it.
  type Client = { requestIterator?: { context?: { shape?: string } } };
  (run as unknown as EventEmitter).on('response', (client: Client, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    const shape = client.requestIterator?.context?.shape;
    if (shape) (latenciesByShape[shape] ??= []).push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await run;
  const generator = process.cpuUsage(generatorStart);
  latencies.sort((a, b) => a - b);
  for (const list of Object.values(latenciesByShape)) list.sort((a, b) => a - b);
  // The load generator's own CPU (this process: autocannon and the request mix), which shares the cores.
  return {
    result,
    latencies,
    latenciesByShape,
    statuses,
    counts,
    generatorCpuMs: (generator.user + generator.system) / 1000,
  };
}

/** Where and how the mix is driven. */
export interface MixOptions {
  url: string;
  connections: number;
  seconds: number;
  timeoutS: number;
  personFor: (no: number) => Session | null;
  chooseFor: (session: Session | null) => Shape;
  /** A scratch directory (wrk's request list). */
  runDir: string;
}

/** The morning mix with autocannon: latency by kind of request, 4xx and 5xx apart. */
export async function mixWithAutocannon(o: MixOptions): Promise<MixRun> {
  const { url: baseURL, connections, seconds, timeoutS, personFor, chooseFor } = o;
  const { result, latencies, latenciesByShape, statuses, counts, generatorCpuMs } = await drive({
    url: baseURL,
    connections,
    seconds,
    timeoutS,
    personFor,
    choose: chooseFor,
  });
  return {
    requests: result.requests.total,
    durationS: result.duration,
    latencyMs: {
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      p99: percentile(latencies, 0.99),
      max: latencies.length ? +latencies[latencies.length - 1]!.toFixed(1) : null,
      mean: result.latency.average,
    },
    statuses,
    failedRequests: result.errors,
    statusErrors: result['4xx'] + result['5xx'],
    status4xx: result['4xx'],
    status5xx: result['5xx'],
    timeouts: result.timeouts,
    counts,
    latencyByRouteMs: Object.fromEntries(
      Object.entries(latenciesByShape)
        .map(([name, list]) => [name, { p50: percentile(list, 0.5), p99: percentile(list, 0.99) }] as const)
        .sort((a, b) => (b[1].p99 ?? 0) - (a[1].p99 ?? 0)),
    ),
    generatorCpuMs,
  };
}
/** The same mix with wrk over 20,000 requests made here beforehand (scripts/bench-wrk.ts). */
export async function mixWithWrk(o: MixOptions): Promise<MixRun> {
  const { url: baseURL, connections, seconds, timeoutS, personFor, chooseFor, runDir } = o;
  const counts: Record<string, number> = {};
  const prepared: PreparedRequest[] = [];
  for (let no = 0; no < 20_000; no++) {
    const session = personFor(no);
    const shape = chooseFor(session);
    const made = shape.make(session, no);
    counts[shape.name] = (counts[shape.name] ?? 0) + 1;
    prepared.push({ method: made.method ?? 'GET', path: made.path, headers: made.headers ?? {}, body: made.body });
  }
  const r = await driveWithWrk({
    url: baseURL,
    connections,
    seconds,
    timeoutS,
    requests: prepared,
    workDir: runDir,
  });
  return {
    requests: r.requests,
    durationS: r.durationS,
    latencyMs: r.latencyMs,
    statuses: {},
    failedRequests: r.errors.connect + r.errors.read + r.errors.write,
    statusErrors: r.errors.status,
    status4xx: null,
    status5xx: null,
    timeouts: r.timeouts,
    // The prepared list's share of each kind (wrk sends it in turn).
    counts,
    latencyByRouteMs: {},
    generatorCpuMs: r.generatorCpuMs,
  };
}

/** What GET /api/health/runtime answers. */
export interface Runtime {
  eventLoopDelayMs: Record<string, number>;
  readQueue?: { readsAtOnce: number; mostWaiting: number };
}

/** Prints the figures of the run, then the one JSON line. */
export function report({
  mixName,
  mix,
  databaseKind,
  nodes,
  connections,
  seconds,
  generator,
  runtime,
  idleRss,
  peak,
  cpu,
  perRoute,
}: {
  mixName: string;
  /** null when no mix was driven (--seconds 0: only --per-route). */
  mix: MixRun | null;
  databaseKind: string;
  nodes: number;
  connections: number;
  seconds: number;
  generator: string;
  runtime: Runtime | null;
  idleRss: number | null;
  peak: { server: number; database: number } | undefined;
  cpu: ReturnType<typeof sumCpu>;
  perRoute: Record<string, unknown>[];
}) {
  if (!mix) {
    // --seconds 0: the per-route figures alone
    console.log(
      JSON.stringify({
        mixName,
        database: databaseKind,
        nodes: nodes || null,
        cores: os.cpus().length,
        loadAverage: os.loadavg().map((n) => +n.toFixed(2)),
        perRoute,
      }),
    );
    return;
  }
  const errors = mix.failedRequests + mix.statusErrors;
  const summary = {
    mixName,
    database: databaseKind,
    nodes: nodes || null,
    connections,
    seconds,
    cores: os.cpus().length,
    loadAverage: os.loadavg().map((n) => +n.toFixed(2)),
    generator,
    requests: mix.requests,
    requestsPerSecond: Math.round(mix.requests / (mix.durationS || seconds)),
    latencyMs: mix.latencyMs,
    statuses: mix.statuses,
    errors,
    failedRequests: mix.failedRequests,
    status4xx: mix.status4xx,
    status5xx: mix.status5xx,
    timeouts: mix.timeouts,
    eventLoopDelayMs: runtime?.eventLoopDelayMs ?? null,
    readQueue: runtime?.readQueue ?? null,
    idleServerRssMB: idleRss === null ? null : +(idleRss / 2 ** 20).toFixed(1),
    peakServerRssMB: peak ? +(peak.server / 2 ** 20).toFixed(1) : null,
    peakDatabaseMB: peak ? +(peak.database / 2 ** 20).toFixed(1) : null,
    serverCpuMsPerRequest: cpu ? perRequest(cpu.server, mix.requests) : null,
    databaseCpuMsPerRequest: cpu ? perRequest(cpu.database, mix.requests) : null,
    generatorCpuMsPerRequest: perRequest(mix.generatorCpuMs, mix.requests),
    mix: Object.fromEntries(Object.entries(mix.counts).sort((a, b) => b[1] - a[1])),
    latencyByRouteMs: mix.latencyByRouteMs,
    perRoute,
  };
  console.log(
    `\nMorning load (${mixName} mix): ${connections} connections for ${seconds} s on ${databaseKind}, driven by ${generator} (${summary.cores} shared cores, load average ${summary.loadAverage.join(' ')})`,
  );
  console.log(`  ${summary.requests} requests, ${summary.requestsPerSecond} requests/s`);
  console.log(
    `  latency p50 ${summary.latencyMs.p50} ms, p95 ${summary.latencyMs.p95} ms, p99 ${summary.latencyMs.p99} ms, max ${summary.latencyMs.max} ms`,
  );
  console.log(
    `  errors ${errors} (failed ${mix.failedRequests}, ${mix.status4xx === null ? `answers not 2xx/3xx ${mix.statusErrors}` : `4xx ${mix.status4xx}, 5xx ${mix.status5xx}`}), time-outs ${mix.timeouts}`,
  );
  if (Object.keys(summary.latencyByRouteMs).length) {
    console.log('  latency by kind of request in the mix (slowest p99 first):');
    for (const [name, l] of Object.entries(summary.latencyByRouteMs))
      console.log(`    ${name.padEnd(42)} p50 ${l.p50} ms, p99 ${l.p99} ms`);
  }
  if (runtime) {
    const d = runtime.eventLoopDelayMs;
    console.log(`  server event-loop delay: mean ${d.mean} ms, p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms`);
    const q = runtime.readQueue;
    if (q)
      console.log(`  reads at once ${q.readsAtOnce || 'unlimited'}; most reads waiting their turn ${q.mostWaiting}`);
  }
  if (cpu)
    console.log(
      `  CPU per request: server ${summary.serverCpuMsPerRequest} ms, database ${summary.databaseCpuMsPerRequest} ms, ` +
        `load generator ${summary.generatorCpuMsPerRequest} ms`,
    );
  if (peak && idleRss !== null)
    console.log(`  server RSS idle ${mb(idleRss)}, peak ${mb(peak.server)}; database peak ${mb(peak.database)} (Pss)`);
  console.log(JSON.stringify(summary));
}
