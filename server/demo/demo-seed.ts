import { count, eq, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  closeGroupDocuments,
  closeGroupMembers,
  closeGroups,
  contactInfos,
  directorEntries,
  groupItems,
  groups,
  labItems,
  labPhotos,
  labs,
  letterCounters,
  letters,
  officeMembers,
  softwareRepos,
  trialRepos,
  users,
  type UserRow,
} from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION, DEFAULT_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import {
  CLOSE_GROUPS,
  DELHI_ADDRESSES,
  DEMO_GROUPS,
  DEMO_LAB,
  DEMO_PENDING,
  DEMO_STAFF,
  DIRECTOR_FROM,
  DIRECTOR_OFFICE,
  GALLERY,
  LAB_ITEMS,
  LETTER_CATEGORIES,
  LETTER_CHANNELS,
  LETTER_ESTABLISHMENTS,
  LETTER_LANGUAGES,
  LETTER_SUBJECTS,
  PAST_DIRECTORS,
  type DemoGroup,
} from './demo-data.ts';
import { storedZip } from '#server/lib/zip.ts';
import type { FileStore } from '#server/modules/files/storage.ts';
import { DemoFileStore, makePdf, makePhoto, makePortrait, makeScan } from './demo-files.ts';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_EMAIL_DOMAIN = 'lab.local';

export interface DemoAccount {
  role: string;
  name: string;
  email: string;
  group: string;
  status: 'approved' | 'pending';
}

export interface DemoSummary {
  accounts: DemoAccount[];
  password: string;
  counts: Record<string, number>;
}

/**
 * Why this database is not empty enough for the demo, or null. The demo fills an empty portal only; the one
 * administrator a first start creates (bootstrap) is allowed.
 */
export async function demoRefusal(db: Db): Promise<string | null> {
  const [{ labCount }] = (await db.select({ labCount: count() }).from(labs)) as [{ labCount: number }];
  const [{ others }] = (await db.select({ others: count() }).from(users).where(ne(users.role, 'admin'))) as [
    { others: number },
  ];
  const [{ admins }] = (await db.select({ admins: count() }).from(users).where(eq(users.role, 'admin'))) as [
    { admins: number },
  ];
  if (labCount === 0 && others === 0 && admins <= 1) return null;
  const what = [
    labCount ? 'a lab' : '',
    others + admins > 0 ? `${others + admins} user account${others + admins === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `This portal already holds ${what}. The demo fills only an empty portal, so nothing was changed.`;
}

/** A repeatable pseudo-random sequence (mulberry32), so every demo looks the same. */
function random(seed: number) {
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

const DAY = 24 * 60 * 60 * 1000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** first.last@lab.local from "Dr. First Middle Last". */
export function demoEmail(name: string): string {
  const words = name
    .replace(/^Dr\.\s+/, '')
    .toLowerCase()
    .split(/\s+/);
  return `${words[0]}.${words[words.length - 1]}@${DEMO_EMAIL_DOMAIN}`;
}

const PORTRAIT_COLOURS = ['#1d4e89', '#b23a48', '#2a9d8f', '#6a4c93', '#e76f51', '#386641', '#8d5524', '#264653'];

/**
 * Fills an empty portal with a believable lab: the lab pages, five groups, about twenty-five approved staff of every
 * role, pending registrations, notices and circulars with real PDF files, gallery photos, group documents, letters,
 * close groups and repositories. Everything is written in one transaction; files go through the storage layout
 * (through the storage given) and are removed again if the transaction fails.
 */
export async function seedDemo(
  db: Db,
  storage: FileStore,
  opts: { today?: Date; password?: string } = {},
): Promise<DemoSummary> {
  const refusal = await demoRefusal(db);
  if (refusal) throw new Error(refusal);
  const today = opts.today ?? new Date();
  const daysAgo = (n: number) => new Date(today.getTime() - n * DAY);
  const rnd = random(20261121);
  const password = opts.password ?? DEMO_PASSWORD;
  const passwordHash = await hashPassword(password);
  const store = new DemoFileStore(storage);
  const counts: Record<string, number> = {};
  const add = (what: string, n = 1) => (counts[what] = (counts[what] ?? 0) + n);
  const accounts: DemoAccount[] = [];
  const heading = DEMO_LAB.name;

  try {
    await db.transaction(async (tx) => {
      // --- the lab ---------------------------------------------------------------------------------------------
      const [lab] = await tx
        .insert(labs)
        .values({
          name: DEMO_LAB.name,
          domain: DEMO_LAB.domain,
          about: DEMO_LAB.about,
          vision: DEMO_LAB.vision,
          mission: DEMO_LAB.mission,
          history: DEMO_LAB.history,
          createdAt: daysAgo(400),
        })
        .returning();
      await tx
        .insert(contactInfos)
        .values(DEMO_LAB.contactInfo.map((c, position) => ({ labId: lab!.id, ...c, position })));
      await tx.insert(officeMembers).values(DIRECTOR_OFFICE.map((m, position) => ({ labId: lab!.id, ...m, position })));
      add('office members', DIRECTOR_OFFICE.length);

      // --- groups ----------------------------------------------------------------------------------------------
      const groupIds = new Map<string, string>();
      for (const g of DEMO_GROUPS) {
        const [group] = await tx
          .insert(groups)
          .values({
            labId: lab!.id,
            name: g.name,
            description: g.description,
            about: g.about,
            vision: g.vision,
            mission: g.mission,
            history: g.history,
            createdAt: daysAgo(390),
          })
          .returning();
        groupIds.set(g.key, group!.id);
        await tx.insert(contactInfos).values([
          {
            groupId: group!.id,
            type: 'Address',
            label: 'Office',
            value: `${g.building}, ${DEMO_LAB.contactInfo[0].value}`,
            position: 0,
          },
          { groupId: group!.id, type: 'Phone', label: 'Office', value: g.phone, position: 1 },
          { groupId: group!.id, type: 'Email', label: 'Group', value: g.email, position: 2 },
        ]);
        await tx.insert(officeMembers).values(g.office.map((m, position) => ({ groupId: group!.id, ...m, position })));
        add('groups');
        add('office members', g.office.length);
      }

      // --- staff -----------------------------------------------------------------------------------------------
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
      for (const user of staff.values()) {
        await tx.update(users).set({ approvedBy: admin.id }).where(eq(users.id, user.id));
        await recordActivity(tx, admin, `Approved user ${user.email} as ${user.role}`, { type: 'user', id: user.id });
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
        await recordActivity(tx, user!, `Registered as ${user!.email} (requested role ${user!.role})`, {
          type: 'user',
          id: user!.id,
        });
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

      // --- director history and group heads --------------------------------------------------------------------
      for (const [i, d] of PAST_DIRECTORS.entries()) {
        const image = await store.save(
          tx,
          'directors',
          `${d.name}.jpg`,
          await makePortrait(d.name, PORTRAIT_COLOURS[i]!),
          admin.id,
        );
        await tx.insert(directorEntries).values({
          labId: lab!.id,
          name: d.name,
          designation: DEFAULT_DIRECTOR_DESIGNATION,
          from: d.from,
          to: d.to,
          about: d.about,
          imageFileId: image.id,
        });
      }
      const director = directorUser!;
      await tx.insert(directorEntries).values({
        labId: lab!.id,
        userId: director.id,
        name: director.name,
        designation: DEFAULT_DIRECTOR_DESIGNATION,
        from: DIRECTOR_FROM,
        about: `${director.name} took charge as Director on 1 April 2024. He leads the lab's programmes in fire suppression for submarines, explosives licensing and the remediation of firing ranges.`,
        imageFileId: director.photoFileId,
      });
      add('director entries', PAST_DIRECTORS.length + 1);
      for (const g of DEMO_GROUPS) {
        const groupId = groupIds.get(g.key)!;
        const head = heads.get(g.key)!;
        await tx.insert(directorEntries).values([
          {
            groupId,
            name: g.pastHead.name,
            designation: DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION,
            from: g.pastHead.from,
            to: g.pastHead.to,
            about: g.pastHead.about,
          },
          {
            groupId,
            userId: head.id,
            name: head.name,
            designation: DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION,
            from: g.headFrom,
            about: head.about,
            imageFileId: head.photoFileId,
          },
        ]);
        add('director entries', 2);
      }

      // --- lab notices, circulars, products, advertisements ----------------------------------------------------
      const areaOf = {
        notice: 'notices',
        circular: 'circulars',
        product: 'products',
        advertisement: 'advertisements',
      } as const;
      for (const kind of ['notice', 'circular', 'product', 'advertisement'] as const) {
        for (const [i, item] of LAB_ITEMS[kind].entries()) {
          const [name, description, ago = 30 + i * 20, validFor = null] = item as readonly [
            string,
            string,
            number?,
            (number | null)?,
          ];
          const issued = daysAgo(ago);
          const file = await store.save(
            tx,
            areaOf[kind],
            `${name}.pdf`,
            makePdf({
              heading,
              title: name,
              reference: `No. CFEES/${kind === 'circular' ? 'CIR' : kind === 'notice' ? 'NOT' : 'TECH'}/${issued.getFullYear()}/${101 + i}    Dated ${isoDate(issued)}`,
              body: `${description}\n\n${kind === 'notice' || kind === 'circular' ? 'All Heads of Groups are requested to bring this to the notice of their staff.' : 'For details, contact the Technical Coordination and Administration Group.'}`,
              signature: `(${admin.name})\n${admin.designation}\nfor Director`,
            }),
            admin.id,
          );
          await tx.insert(labItems).values({
            labId: lab!.id,
            kind,
            name,
            description,
            fileId: file.id,
            validUntil: validFor ? isoDate(new Date(issued.getTime() + validFor * DAY)) : null,
            createdAt: issued,
          });
          await recordActivity(tx, admin, `Added lab ${kind} ${name}`, { type: 'lab', id: lab!.id });
          add(`lab ${kind}s`);
        }
      }

      // --- gallery ---------------------------------------------------------------------------------------------
      for (const [i, photo] of GALLERY.entries()) {
        const { full, web } = await makePhoto({ title: photo.title, ...photo.scene });
        const fullFile = await store.save(tx, 'photos', `${photo.title}.jpg`, full, admin.id);
        const webFile = await store.save(tx, 'photos', `${photo.title} (web).jpg`, web, admin.id);
        await tx.insert(labPhotos).values({
          labId: lab!.id,
          name: photo.title,
          description: photo.description,
          fileId: fullFile.id,
          webFileId: webFile.id,
          createdAt: daysAgo(100 - i * 12),
        });
        await recordActivity(tx, admin, `Uploaded lab photo ${photo.title}`, { type: 'lab', id: lab!.id });
        add('photos');
      }

      // --- group notices, circulars and files ------------------------------------------------------------------
      const groupKinds = [
        ['notices', 'notice'],
        ['circulars', 'circular'],
        ['projects', 'project'],
        ['patents', 'patent'],
        ['technologies', 'technology'],
        ['courses', 'course'],
        ['publications', 'publication'],
      ] as const;
      for (const g of DEMO_GROUPS) {
        const groupId = groupIds.get(g.key)!;
        const head = heads.get(g.key)!;
        for (const [field, kind] of groupKinds) {
          for (const [i, [name, description]] of (g[field as keyof DemoGroup] as [string, string][]).entries()) {
            const issued = daysAgo(kind === 'notice' || kind === 'circular' ? 3 + i * 9 : 60 + i * 45);
            const file = await store.save(
              tx,
              'group-files',
              `${name}.pdf`,
              makePdf({
                heading: `${heading} - ${g.name}`,
                title: name,
                reference: `Dated ${isoDate(issued)}`,
                body: `${description}\n\n${g.about}`,
                signature: `(${head.name})\nHead, ${g.name}`,
              }),
              head.id,
            );
            await tx
              .insert(groupItems)
              .values({ groupId, kind, name, description, fileId: file.id, createdAt: issued });
            add(`group ${field}`);
          }
        }
        await recordActivity(tx, head, `Updated the documents of group ${g.name}`, { type: 'group', id: groupId });
      }

      // --- letters (the dak register) --------------------------------------------------------------------------
      const uploaders = [...staff.values()].filter((u) => u.role === 'employee' || u.role === 'associate_director');
      const lastByYear = new Map<number, number>();
      const letterRows = LETTER_SUBJECTS.map((subject, i) => {
        const uploadedAt = new Date(
          daysAgo((LETTER_SUBJECTS.length - i) * 9 + rnd.int(0, 5)).getTime() + rnd.int(9, 17) * 3600_000,
        );
        return { subject, i, uploadedAt };
      });
      for (const { subject, i, uploadedAt } of letterRows) {
        const year = uploadedAt.getUTCFullYear();
        const seq = (lastByYear.get(year) ?? 0) + 1;
        lastByYear.set(year, seq);
        const letterId = `L-${year}-${String(seq).padStart(6, '0')}`;
        const letterDate = daysAgo(Math.round((today.getTime() - uploadedAt.getTime()) / DAY) + rnd.int(4, 15));
        const docketDate = new Date(uploadedAt.getTime() - rnd.int(0, 2) * DAY);
        const uploader = uploaders[i % uploaders.length]!;
        const establishment = rnd.pick(LETTER_ESTABLISHMENTS);
        const category = rnd.pick(LETTER_CATEGORIES);
        const letterNo = `${establishment.split(/[ ,]/)[0]!.toUpperCase()}/${category.slice(0, 3).toUpperCase()}/${letterDate.getFullYear()}/${rnd.int(100, 999)}`;
        const scan = i % 9 === 4; // a few letters arrive as scanned images
        const bytes = scan
          ? await makeScan(establishment, subject)
          : makePdf({
              heading: establishment,
              title: `Subject: ${subject}`,
              reference: `No. ${letterNo}    Dated ${isoDate(letterDate)}`,
              body: `To\nThe Director\n${DEMO_LAB.name}\nDelhi\n\nSir/Madam,\n\nPlease find enclosed the details regarding "${subject.toLowerCase()}". Your kind action and an early reply are requested.\n\nThis issues with the approval of the competent authority.`,
              signature: `(Authorised signatory)\nfor ${establishment}`,
            });
        const file = await store.save(
          tx,
          'letters',
          `${letterId} ${subject}.${scan ? 'jpg' : 'pdf'}`,
          bytes,
          uploader.id,
        );
        const [letter] = await tx
          .insert(letters)
          .values({
            letterId,
            letterSub: subject,
            letterNo,
            letterDate: isoDate(letterDate),
            docketNo: `DKT/${year}/${String(seq * 3 + 100).padStart(4, '0')}`,
            docketDate: isoDate(docketDate),
            category,
            establishment,
            letterLanguage: rnd.pick(LETTER_LANGUAGES),
            letterCommunBy: rnd.pick(LETTER_CHANNELS),
            letterUploadDate: uploadedAt,
            fileId: file.id,
            uploadedBy: uploader.id,
          })
          .returning({ id: letters.id });
        await recordActivity(tx, uploader, `Uploaded letter ${letterId}`, { type: 'letter', id: letter!.id });
        add('letters');
      }
      for (const [year, last] of lastByYear) await tx.insert(letterCounters).values({ year, last });

      // --- close groups ----------------------------------------------------------------------------------------
      for (const cg of CLOSE_GROUPS) {
        const members = cg.members.flatMap((key) => byGroup.get(key) ?? []).slice(0, cg.size);
        const [closeGroup] = await tx
          .insert(closeGroups)
          .values({
            groupName: cg.groupName,
            groupPurpose: cg.groupPurpose,
            durationFrom: isoDate(daysAgo(cg.fromDaysAgo)),
            durationTo: isoDate(daysAgo(-cg.toDaysAhead)),
            adminRemarks: cg.adminRemarks,
            createdBy: admin.id,
            createdAt: daysAgo(cg.fromDaysAgo),
          })
          .returning();
        await tx.insert(closeGroupMembers).values(members.map((m) => ({ closeGroupId: closeGroup!.id, userId: m.id })));
        await recordActivity(tx, admin, `Created close group ${cg.groupName}`, {
          type: 'close-group',
          id: closeGroup!.id,
        });
        for (const [i, filename] of cg.documents.entries()) {
          const uploader = members[i % members.length]!;
          const file = await store.save(
            tx,
            'close-groups',
            filename,
            makePdf({
              heading: `${cg.groupName} (restricted)`,
              title: filename.replace(/\.pdf$/, ''),
              reference: `Close group document ${i + 1}`,
              body: `${cg.groupPurpose}\n\nMembers: ${members.map((m) => m.name).join(', ')}.`,
              signature: `(${uploader.name})`,
            }),
            uploader.id,
          );
          await tx.insert(closeGroupDocuments).values({
            closeGroupId: closeGroup!.id,
            fileId: file.id,
            filename,
            uploadedBy: uploader.id,
            uploadedAt: daysAgo(cg.fromDaysAgo - 5 - i * 7),
          });
          add('close group documents');
        }
        add('close groups');
      }

      // --- software and trial repositories ---------------------------------------------------------------------
      const repoHost = 'https://git.lab.local';
      const softwareRepoSpecs = [
        { group: 'hazard', type: 'Code' as const, slug: 'depot-risk-toolkit', lang: 'Python', file: 'zip' },
        { group: 'hazard', type: 'Document' as const, slug: 'smoke-model-manual', lang: 'Fortran', file: 'pdf' },
        { group: 'fire', type: 'ZIP File' as const, slug: 'cone-calorimeter-analysis', lang: 'Python', file: 'zip' },
        { group: 'explosives', type: 'Code' as const, slug: 'qd-calculator', lang: 'TypeScript', file: null },
        { group: 'environment', type: 'Document' as const, slug: 'sampling-protocols', lang: 'Markdown', file: 'pdf' },
      ];
      for (const [i, spec] of softwareRepoSpecs.entries()) {
        const uploader = heads.get(spec.group)!;
        const title = spec.slug.replace(/-/g, ' ');
        let fileId: string | null = null;
        if (spec.file) {
          const bytes =
            spec.file === 'zip'
              ? storedZip([
                  {
                    name: `${spec.slug}/README.txt`,
                    text: `${title}\n\nInternal software of the ${DEMO_GROUPS.find((g) => g.key === spec.group)!.name}.\n`,
                  },
                  {
                    name: `${spec.slug}/main.py`,
                    text: `"""${title}"""\n\n\ndef main():\n    print("${title}")\n\n\nif __name__ == "__main__":\n    main()\n`,
                  },
                ])
              : makePdf({
                  heading,
                  title: `${title} - user manual`,
                  body: `How to install and use ${title}.`,
                  signature: `(${uploader.name})`,
                });
          fileId = (await store.save(tx, 'software-repos', `${spec.slug}.${spec.file}`, bytes, uploader.id)).id;
        }
        await tx.insert(softwareRepos).values({
          groupId: groupIds.get(spec.group)!,
          type: spec.type,
          githubUrl: `${repoHost}/${spec.group}/${spec.slug}`,
          clonedRepoPath: i % 2 === 0 ? `/srv/repos/${spec.group}/${spec.slug}` : '',
          metadata: {
            language: spec.lang,
            version: `1.${i}.0`,
            licence: 'Internal use only',
            maintainer: uploader.email,
          },
          fileId,
          uploadedBy: uploader.id,
          createdAt: daysAgo(80 - i * 10),
        });
        await recordActivity(tx, uploader, `Uploaded software repository ${spec.slug}`, {
          type: 'group',
          id: groupIds.get(spec.group)!,
        });
        add('software repositories');
      }
      const trialSpecs = [
        { group: 'fire', type: 'Fire test recording notes', languages: ['Python'], ext: 'txt', size: 4, minutes: 45 },
        {
          group: 'explosives',
          type: 'Blast trial data',
          languages: ['MATLAB', 'Python'],
          ext: 'pdf',
          size: 2,
          minutes: 120,
        },
        { group: 'hazard', type: 'Simulation run', languages: ['C++', 'OpenFOAM'], ext: 'txt', size: 3, minutes: 600 },
        { group: 'environment', type: 'Field sampling photographs', languages: [], ext: 'jpg', size: 20, minutes: 0 },
      ];
      for (const [i, spec] of trialSpecs.entries()) {
        const uploader = (byGroup.get(spec.group) ?? []).find((u) => u.role === 'employee') ?? heads.get(spec.group)!;
        const name = `${spec.type.toLowerCase().replace(/\s+/g, '-')}.${spec.ext}`;
        const bytes =
          spec.ext === 'txt'
            ? Buffer.from(
                `${spec.type}\nrun,time_s,value\n${Array.from({ length: 40 }, (_, k) => `${i + 1},${k * 5},${(Math.sin(k / 4) * 100 + 300).toFixed(1)}`).join('\n')}\n`,
              )
            : spec.ext === 'pdf'
              ? makePdf({
                  heading,
                  title: spec.type,
                  body: 'Peak overpressure and impulse at 10, 20 and 40 m from the charge.',
                })
              : (await makePhoto({ title: spec.type, ...GALLERY[2]!.scene })).web;
        const file = await store.save(tx, 'trial-repos', name, bytes, uploader.id);
        await tx.insert(trialRepos).values({
          groupId: groupIds.get(spec.group)!,
          type: spec.type,
          githubUrl: `${repoHost}/${spec.group}/trials-${i + 1}`,
          clonedRepoPath: `/srv/trials/${spec.group}/${i + 1}`,
          sizeInKb: Math.max(1, Math.round(bytes.length / 1024)),
          duration: spec.minutes,
          languageUsed: spec.languages,
          fileId: file.id,
          uploadedBy: uploader.id,
          createdAt: daysAgo(50 - i * 8),
        });
        await recordActivity(tx, uploader, `Uploaded trial repository ${spec.type}`, {
          type: 'group',
          id: groupIds.get(spec.group)!,
        });
        add('trial repositories');
      }
      add('files', store.count);
    });
  } catch (err) {
    await store.discardAll();
    throw err;
  }
  return { accounts, password, counts };
}
