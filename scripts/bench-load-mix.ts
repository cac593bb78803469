// bench:load (scripts/bench-load.ts): the request mix. What a visitor and a signed-in member of staff ask, and how
// often.
import type { Session } from './bench-load-seed.ts';

const SEARCHES = ['kumar', 'sharma', 'fire', 'scientist', 'a', 'rao', 'singh', 'dr'];
const LETTER_SEARCHES = ['fire', 'safety', 'audit', 'HQ', 'letter', 'test', 'procurement', 'training'];

export interface Shape {
  /** What it stands for in the per-route figures, e.g. "GET /api/groups/my-group". */
  name: string;
  weight: number;
  make: (
    s: Session | null,
    n: number,
  ) => { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string };
}

/** The kinds of request of the mix, for the demo lab `lab` with the assets and photos it serves. */
export function makeShapes({
  lab,
  assets,
  photoUrls,
  uploads,
}: {
  lab: { _id: string };
  assets: string[];
  photoUrls: string[];
  uploads: { contentType: string; body: Buffer }[];
}) {
  const browser = { 'accept-encoding': 'gzip, deflate, br' };
  const asJson = { ...browser, accept: 'application/json' };
  const auth = (s: Session | null) => ({ ...asJson, authorization: `Bearer ${s!.token}` });
  const pick = <T>(list: T[], n: number) => list[n % list.length]!;
  const visitor: Shape[] = [
    {
      name: 'GET / (index.html)',
      weight: 8,
      make: () => ({ path: '/', headers: { ...browser, accept: 'text/html' } }),
    },
    {
      name: 'GET /assets/* (a script)',
      weight: 4,
      make: (_s, n) => ({ path: assets.length ? pick(assets, n) : '/', headers: browser }),
    },
    { name: 'GET /api/labs/only', weight: 8, make: () => ({ path: '/api/labs/only', headers: asJson }) },
    { name: 'GET /api/labs/{id}', weight: 25, make: () => ({ path: `/api/labs/${lab._id}`, headers: asJson }) },
    {
      name: 'GET /api/labs/{id}/documents?current',
      weight: 15,
      make: () => ({ path: `/api/labs/${lab._id}/documents?current=true&limit=5`, headers: asJson }),
    },
    {
      name: 'GET /api/labs/{id}/documents',
      weight: 10,
      make: () => ({ path: `/api/labs/${lab._id}/documents`, headers: asJson }),
    },
    {
      name: 'GET /api/labs/{id}/photos',
      weight: 15,
      make: () => ({ path: `/api/labs/${lab._id}/photos`, headers: asJson }),
    },
    {
      name: 'GET /uploads/photos/* (a photo)',
      weight: 10,
      make: (_s, n) => ({ path: photoUrls.length ? pick(photoUrls, n) : '/api/labs/only', headers: browser }),
    },
  ];
  let letterNo = 0;
  const staff: Shape[] = [
    { name: 'GET /api/auth/me', weight: 10, make: (s) => ({ path: '/api/auth/me', headers: auth(s) }) },
    {
      name: 'GET /api/groups/id/{id}',
      weight: 12,
      make: (s) => ({ path: s!.groupId ? `/api/groups/id/${s!.groupId}` : '/api/groups/name', headers: auth(s) }),
    },
    {
      name: 'GET /api/groups/my-group',
      weight: 12,
      make: (s) => ({ path: '/api/groups/my-group', headers: auth(s) }),
    },
    { name: 'GET /api/users/{id}', weight: 10, make: (s) => ({ path: `/api/users/${s!.userId}`, headers: auth(s) }) },
    {
      name: 'GET /api/users?q=',
      weight: 14,
      make: (s, n) => ({ path: `/api/users?q=${pick(SEARCHES, n)}&limit=20`, headers: auth(s) }),
    },
    {
      name: 'GET /api/dac/page?q=',
      weight: 14,
      make: (s, n) => ({ path: `/api/dac/page?q=${pick(LETTER_SEARCHES, n)}&limit=20`, headers: auth(s) }),
    },
    {
      name: 'GET /api/labs/{id} (signed in)',
      weight: 10,
      make: (s) => ({ path: `/api/labs/${lab._id}`, headers: auth(s) }),
    },
    {
      name: 'POST /api/dac (a letter upload)',
      weight: 2,
      make: (s) => {
        const u = uploads[letterNo++ % uploads.length]!;
        return {
          method: 'POST',
          path: '/api/dac',
          headers: { ...auth(s), 'content-type': u.contentType },
          body: u.body,
        };
      },
    },
    {
      name: 'PUT /api/users/{id} (a profile save)',
      weight: 2,
      make: (s, n) => ({
        method: 'PUT',
        path: `/api/users/${s!.userId}`,
        headers: { ...auth(s), 'content-type': 'application/json' },
        body: JSON.stringify({ about: `Working on the morning load, save ${n}.` }),
      }),
    },
  ];
  const chooser = (shapes: Shape[]) => {
    const total = shapes.reduce((n, s) => n + s.weight, 0);
    return (r: number) => {
      let x = r * total;
      for (const s of shapes) if ((x -= s.weight) < 0) return s;
      return shapes[shapes.length - 1]!;
    };
  };
  const chooseVisitor = chooser(visitor);
  const chooseStaff = chooser(staff);
  return { visitor, staff, chooseVisitor, chooseStaff };
}
