// What the parts of the demo seed share (server/demo/demo-seed.ts): the transaction, the file store, the clock, a
// repeatable random sequence, the counters and what the earlier parts made (the lab, the groups, the people).
import type { Tx } from '#server/db/client.ts';
import type { labs, UserRow } from '#server/db/schema/index.ts';

import type { DemoFileStore } from './demo-files.ts';

export const DEMO_EMAIL_DOMAIN = 'lab.local';

export interface DemoAccount {
  role: string;
  name: string;
  email: string;
  group: string;
  status: 'approved' | 'pending';
}

/** A repeatable pseudo-random sequence (mulberry32), so every demo looks the same. */
export function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}

export const DAY = 24 * 60 * 60 * 1000;
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** first.last@lab.local from "Dr. First Middle Last". */
export function demoEmail(name: string): string {
  const words = name
    .replace(/^Dr\.\s+/, '')
    .toLowerCase()
    .split(/\s+/);
  return `${words[0]}.${words[words.length - 1]}@${DEMO_EMAIL_DOMAIN}`;
}

export const PORTRAIT_COLOURS = [
  '#1d4e89',
  '#b23a48',
  '#2a9d8f',
  '#6a4c93',
  '#e76f51',
  '#386641',
  '#8d5524',
  '#264653',
];

/** The seed's shared state; every part writes in the one transaction `tx` and counts what it made with `add`. */
export interface SeedContext {
  tx: Tx;
  store: DemoFileStore;
  today: Date;
  daysAgo: (n: number) => Date;
  rnd: ReturnType<typeof random>;
  passwordHash: string;
  add: (what: string, n?: number) => void;
  accounts: DemoAccount[];
  /** The lab's name, the heading of its documents. */
  heading: string;
}

export type LabRow = typeof labs.$inferSelect;

/** The approved staff by name and by group key, the admin, the director and each group's head. */
export interface People {
  staff: Map<string, UserRow>;
  byGroup: Map<string, UserRow[]>;
  admin: UserRow;
  director: UserRow;
  heads: Map<string, UserRow>;
}

/** What the later parts build on: the lab, the group ids by key and the people. */
export interface DemoWorld extends People {
  lab: LabRow;
  groupIds: Map<string, string>;
}
