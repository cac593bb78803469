import { sql } from 'drizzle-orm';
import pg from 'pg';

import type { DbOrTx } from './client.ts';

/**
 * Cross-node change notices through PostgreSQL LISTEN/NOTIFY (decision 052): nodes that share one database tell each
 * other that cached reads are out of date, with no other server to run. A notice sent inside a transaction is
 * delivered at its commit and never for a rollback.
 */
export const CHANGE_CHANNEL = 'lab_portal_changes';

/** Tells every node (this one included) that `topic` changed; inside a transaction it goes out at commit. */
export async function announceChange(db: DbOrTx, topic: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`);
}

export interface ChangeFeed {
  /**
   * Calls `onChange` for each notice of `topic`, and also whenever the feed (re)connects: notices sent while it was
   * down are lost, so whatever was cached then is suspect.
   */
  subscribe(topic: string, onChange: () => void): void;
  /** Is the LISTEN connection up? While it is down, caches rely on their own short expiry. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  log?: { info: (msg: string) => void; warn: (msg: string) => void };
  /** Longest wait between reconnection attempts. */
  maxRetryMs?: number;
}

export interface Listener {
  /** Is the LISTEN connection up? */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * Keeps one dedicated connection (not from the pool: a LISTEN lives as long as its session) listening on `channel`,
 * reconnecting with a growing pause (0.25 s doubling up to maxRetryMs) after it is lost (a database restart,
 * decision 025). `onConnect` runs after every successful LISTEN, the first included (`again` is true after a loss):
 * notices sent while it was down are lost, so the caller rereads what it relies on. TCP keep-alive notices a silently
 * dropped connection. NOTE: LISTEN needs a session, so DATABASE_URL must not point at a pooler in transaction mode
 * (PgBouncer's default); see docs/deployment.md.
 */
export function keepListening(
  url: string,
  channel: string,
  handlers: { onNotification: (payload: string) => void; onConnect?: (again: boolean) => void },
  opts: ChangeFeedOptions & { name?: string } = {},
): Listener {
  const maxRetryMs = opts.maxRetryMs ?? 5000;
  const name = opts.name ?? channel;
  let client: pg.Client | undefined;
  let connected = false;
  let closed = false;
  let retryMs = 250;
  let timer: NodeJS.Timeout | undefined;
  let everConnected = false;

  const scheduleReconnect = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  const lost = (why: string) => {
    if (closed) return;
    if (connected) opts.log?.warn(`${name} lost (${why}); reconnecting`);
    connected = false;
    const old = client;
    client = undefined;
    old?.removeAllListeners();
    old?.on('error', () => {}); // a late error from the dead connection must not crash the process
    void old?.end().catch(() => {});
    scheduleReconnect();
  };

  async function connect() {
    if (closed) return;
    const c = new pg.Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5000,
      application_name: `lab-portal ${name}`,
    });
    client = c;
    c.on('error', (err) => lost(err.message));
    c.on('end', () => lost('connection ended'));
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload) handlers.onNotification(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      if (client === c) lost((err as Error).message);
      return;
    }
    if (closed || client !== c) {
      await c.end().catch(() => {});
      return;
    }
    connected = true;
    retryMs = 250;
    if (everConnected) opts.log?.info(`${name} reconnected`);
    handlers.onConnect?.(everConnected);
    everConnected = true;
  }

  void connect();

  return {
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      connected = false;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/** Cross-node change notices on CHANGE_CHANNEL (keepListening); every subscriber starts afresh on each (re)connect. */
export function listenForChanges(url: string, opts: ChangeFeedOptions = {}): ChangeFeed {
  const subscribers = new Map<string, (() => void)[]>();
  const notifyAll = () => {
    for (const list of subscribers.values()) for (const fn of list) fn();
  };
  const listener = keepListening(
    url,
    CHANGE_CHANNEL,
    {
      onNotification: (topic) => {
        for (const fn of subscribers.get(topic) ?? []) fn();
      },
      onConnect: notifyAll, // anything cached while we were not listening may be stale
    },
    { ...opts, name: 'change feed' },
  );
  return {
    subscribe(topic, onChange) {
      const list = subscribers.get(topic) ?? [];
      list.push(onChange);
      subscribers.set(topic, list);
    },
    get connected() {
      return listener.connected;
    },
    close: () => listener.close(),
  };
}
