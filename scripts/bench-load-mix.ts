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

/** Picks a shape by weight for a random number in [0, 1). */
function chooser(shapes: Shape[]) {
  const total = shapes.reduce((n, s) => n + s.weight, 0);
  return (r: number) => {
    let x = r * total;
    for (const s of shapes) if ((x -= s.weight) < 0) return s;
    return shapes[shapes.length - 1]!;
  };
}

/**
 * The team's mix: the kinds of request of the mix, for the demo lab `lab` with the assets and photos it
 * serves. `audited` (the audited mix): staff also open their Confidential letter, each opening an audit row.
 */
export function makeShapes({
  lab,
  assets,
  photoUrls,
  uploads,
  audited = false,
}: {
  lab: { _id: string };
  assets: string[];
  photoUrls: string[];
  uploads: { contentType: string; body: Buffer }[];
  audited?: boolean;
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
  // A lab's staff open a Confidential letter about as often as they search the register: the card, as the letters
  // page opens it, each opening written to the audit trail before it is answered.
  if (audited)
    staff.push({
      name: 'GET /api/dac/{id} (a Confidential letter opened)',
      weight: 14,
      make: (s) => ({ path: `/api/dac/${s!.confidentialLetterId}`, headers: auth(s) }),
    });
  const chooseVisitor = chooser(visitor);
  const chooseStaff = chooser(staff);
  return { visitor, staff, chooseVisitor, chooseStaff };
}

/**
 * The named mixes of bench:load (`--mix`): the team's morning, the screens' own reads (decision 089), and the
 * team's morning with openings of Confidential letters, each written to the audit trail.
 */
export const MIXES = ['team', 'spec-reads', 'audited'] as const;
export type MixName = (typeof MIXES)[number];

/** The roles whose screens the spec-reads mix opens. */
export const SPEC_READS_ROLES = ['employee', 'associate_director', 'director'];

/**
 * The spec-reads mix (decision 089): every GET a signed-in employee, associate director and director make when opening
 * their screens (spec §2, with the calls of §7 and the portal's own badges), recorded from the built web in Chromium
 * and weighted as a lab's morning uses them. Each screen opening asks its own reads; a full page load (about one
 * opening in three: the first of the morning, a reload, a link from mail) also asks the header's: the lab, the groups
 * menu, the three badges and the News Flash. The weights are opens per hundred screens:
 *   home 20, Letters & Correspondence 15 (a search in one of three), Letters Manager 15 (its inbox in two of three),
 *   group page 12, My Group 10, people directory 8 (a search in one of two), profile 6, the bell 6, repositories 4,
 *   acknowledgements 2, close-group documents 2;
 * plus the spec's own letters list (GET /api/dac, with mine, a search and a second page), which the spec's client
 * calls where the portal's screens call the cursor page.
 */
export function makeSpecReads({ lab }: { lab: { _id: string } }) {
  const asJson = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
  const auth = (s: Session | null) => ({ ...asJson, authorization: `Bearer ${s!.token}` });
  const pick = <T>(list: T[], n: number) => list[n % list.length]!;
  const get = (name: string, weight: number, path: (s: Session, n: number) => string): Shape => ({
    name,
    weight,
    make: (s, n) => ({ path: path(s!, n), headers: auth(s) }),
  });
  const header = 33; // full page loads per hundred openings
  const shapes: Shape[] = [
    // the header of every full page load
    get('GET /api/labs/only', header, () => '/api/labs/only'),
    get('GET /api/groups/menu', header, () => '/api/groups/menu'),
    get('GET /api/dac/inbox/count', header, () => '/api/dac/inbox/count'),
    get('GET /api/acknowledgements/count', header, () => '/api/acknowledgements/count'),
    get('GET /api/notifications/count', header, () => '/api/notifications/count'),
    get('GET /api/labs/{id}/documents?current', header, () => `/api/labs/${lab._id}/documents?current=true`),
    // home
    get('GET /api/labs/{id}', 20, () => `/api/labs/${lab._id}`),
    get('GET /api/labs/{id}/photos', 20, () => `/api/labs/${lab._id}/photos?skip=0&limit=3`),
    // Letters & Correspondence, the Letters Manager and the spec's own list
    get('GET /api/dac/page', 10, () => '/api/dac/page?limit=20'),
    get('GET /api/dac/page?q=', 5, (_s, n) => `/api/dac/page?q=${pick(LETTER_SEARCHES, n)}&limit=20`),
    get('GET /api/dac/page?mine', 15, () => '/api/dac/page?mine=true&limit=20'),
    get('GET /api/dac/inbox', 10, () => '/api/dac/inbox?status=pending&limit=20'),
    get('GET /api/dac', 4, () => '/api/dac?limit=20'),
    get('GET /api/dac?mine', 2, () => '/api/dac?mine=true&limit=20'),
    get('GET /api/dac?q=', 2, (_s, n) => `/api/dac?q=${pick(LETTER_SEARCHES, n)}&limit=20`),
    get('GET /api/dac?offset', 1, () => '/api/dac?limit=20&offset=20'),
    // groups
    get('GET /api/groups/id/{id}', 12, (s) => (s.groupId ? `/api/groups/id/${s.groupId}` : '/api/groups/name')),
    get('GET /api/groups/my-group', 10, () => '/api/groups/my-group'),
    // people
    get('GET /api/users (directory)', 4, () => '/api/users?limit=24&offset=0'),
    get('GET /api/users?q= (directory search)', 4, (_s, n) => `/api/users?q=${pick(SEARCHES, n)}&limit=24&offset=0`),
    get('GET /api/groups/name', 8, () => '/api/groups/name'),
    get('GET /api/users/{id}', 6, (s) => `/api/users/${s.userId}`),
    get('GET /api/auth/second-factor', 6, () => '/api/auth/second-factor'),
    get('GET /api/users/me/mail-preferences', 6, () => '/api/users/me/mail-preferences'),
    get('GET /api/auth/sessions', 6, () => '/api/auth/sessions'),
    // the bell, repositories, acknowledgements, close groups
    get('GET /api/notifications', 6, () => '/api/notifications'),
    get('GET /api/softwareRepo', 2, () => '/api/softwareRepo?limit=20&offset=0'),
    get('GET /api/trialRepo', 2, () => '/api/trialRepo/?limit=20&offset=0'),
    get('GET /api/acknowledgements', 2, () => '/api/acknowledgements?status=pending&limit=20&offset=0'),
    get('GET /api/close-groups/mine', 2, () => '/api/close-groups/mine?limit=20&offset=0'),
  ];
  return { shapes, choose: chooser(shapes) };
}
