// The demo's people (server/demo/demo-seed.ts): approved staff of every role, pending registrations, photos.
import { eq } from 'drizzle-orm';

import { type UserRow, users } from '#server/db/schema/index.ts';
import { roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import { DELHI_ADDRESSES, DEMO_GROUPS, DEMO_PENDING, DEMO_STAFF } from './demo-data.ts';
import { makePortrait } from './demo-files.ts';
import {
  DEMO_EMAIL_DOMAIN,
  demoEmail,
  type DemoWorld,
  type People,
  PORTRAIT_COLOURS,
  type SeedContext,
} from './demo-seed-context.ts';

/** Approved staff (approved by the admin), pending registrations and most profile photos. */
export async function seedPeople(ctx: SeedContext, world: Pick<DemoWorld, 'lab' | 'groupIds'>): Promise<People> {
  const { tx, store, daysAgo, passwordHash, add, accounts } = ctx;
  const { lab, groupIds } = world;
  const staff = new Map<string, UserRow>();
  const byGroup = new Map<string, UserRow[]>();
  let adminUser: UserRow | undefined;
  let directorUser: UserRow | undefined;
  const heads = new Map<string, UserRow>();
  const personValues = (p: (typeof DEMO_STAFF)[number] | (typeof DEMO_PENDING)[number], i: number) => {
    const email = demoEmail(p.name);
    const local = email.split('@')[0]!;
    const born = 1965 + ((i * 7) % 30);
    const joined = Math.max(born + 24, 1992) + (i % 6);
    return {
      email,
      passwordHash,
      about: p.about,
      name: p.name,
      dob: `${born}-${String((i % 12) + 1).padStart(2, '0')}-${String(((i * 5) % 27) + 1).padStart(2, '0')}`,
      mobile: `9${String(810000000 + i * 7654321).slice(0, 9)}`,
      address: DELHI_ADDRESSES[i % DELHI_ADDRESSES.length]!,
      gender: p.gender,
      maritalStatus: i % 5 === 0 ? 'Single' : 'Married',
      bloodGroup: ['B+', 'O+', 'A+', 'AB+', 'O-', 'A-', 'B-', 'AB-'][i % 8]!,
      emergencyName: 'Family contact',
      emergencyRelationship: p.gender === 'Female' ? 'Husband' : 'Wife',
      emergencyMobile: `98${String(11000000 + i * 333331).slice(0, 8)}`,
      designation: p.designation,
      cadre: p.cadre,
      intercom: String(4200 + i * 7),
      internetEmail: `${local}@lab.example.in`,
      dronaEmail: `${local}@drona.${DEMO_EMAIL_DOMAIN}`,
      pis: String(800100 + i * 37),
      aebasId: String(71000000 + i * 1013),
      joiningDate: `${joined}-07-01`,
      skills: p.skills,
      qualifications: p.qualifications,
      employmentFrom: `${joined}-07-01`,
      createdAt: daysAgo(380 - i),
    };
  };
  for (const [i, p] of DEMO_STAFF.entries()) {
    const groupId = groupIds.get(p.group)!;
    const [user] = await tx
      .insert(users)
      .values({
        ...personValues(p, i),
        role: p.role,
        status: 'approved',
        labId: lab!.id,
        groupId,
        approvedAt: daysAgo(370 - i),
      })
      .returning();
    staff.set(p.name, user!);
    byGroup.set(p.group, [...(byGroup.get(p.group) ?? []), user!]);
    if (p.role === 'admin') adminUser ??= user;
    if (p.role === 'director') directorUser ??= user;
    if (p.role === 'associate_director') heads.set(p.group, user!);
    accounts.push({
      role: p.role,
      name: p.name,
      email: user!.email,
      group: DEMO_GROUPS.find((g) => g.key === p.group)!.name,
      status: 'approved',
    });
    add('staff');
  }
  const admin = adminUser!;
  const groupNames = new Map(DEMO_GROUPS.map((g) => [groupIds.get(g.key), g.name]));
  for (const user of staff.values()) {
    await tx.update(users).set({ approvedBy: admin.id }).where(eq(users.id, user.id));
    await recordActivity(
      tx,
      admin,
      'activity.user_approved',
      { email: user.email, role: roleWord(user.role), group: groupNames.get(user.groupId ?? '') ?? '' },
      { type: 'user', id: user.id },
    );
  }
  for (const [i, p] of DEMO_PENDING.entries()) {
    const [user] = await tx
      .insert(users)
      .values({
        ...personValues(p, DEMO_STAFF.length + i),
        role: p.role,
        status: 'pending',
        createdAt: daysAgo(3 - i),
      })
      .returning();
    await recordActivity(
      tx,
      user!,
      'activity.registered',
      { email: user!.email, role: roleWord(user!.role) },
      { type: 'user', id: user!.id },
    );
    accounts.push({ role: p.role, name: p.name, email: user!.email, group: '', status: 'pending' });
    add('pending registrations');
  }

  // Profile photos for most of the staff (a few left without, as in real life).
  for (const [i, user] of [...staff.values()].entries()) {
    if (i % 6 === 5) continue;
    const photo = await store.save(
      tx,
      'profile-photos',
      'photo.jpg',
      await makePortrait(user.name, PORTRAIT_COLOURS[i % 8]!),
      user.id,
    );
    await tx.update(users).set({ photoFileId: photo.id }).where(eq(users.id, user.id));
    add('profile photos');
  }
  return { staff, byGroup, admin, director: directorUser!, heads };
}
