// The demo's letters register (server/demo/demo-seed.ts).
import { letterCounters, letters, type UserRow } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import {
  DEMO_LAB,
  LETTER_CATEGORIES,
  LETTER_CHANNELS,
  LETTER_ESTABLISHMENTS,
  LETTER_LANGUAGES,
  LETTER_SUBJECTS,
} from './demo-data.ts';
import { makePdf, makeScan } from './demo-files.ts';
import { DAY, type DemoWorld, isoDate, type SeedContext } from './demo-seed-context.ts';

/** A letter of the demo register, for the dak that moves it (demo-seed-dak.ts). */
export interface DemoLetter {
  id: string;
  uploadedAt: Date;
  uploader: UserRow;
}

/**
 * The dak register: letters with PDF or scanned files, numbered per year, and the year counters. Returns the letters,
 * oldest first.
 */
export async function seedLetters(ctx: SeedContext, world: DemoWorld): Promise<DemoLetter[]> {
  const { tx, store, today, daysAgo, rnd, add } = ctx;
  const { staff } = world;
  const uploaders = [...staff.values()].filter((u) => u.role === 'employee' || u.role === 'associate_director');
  const lastByYear = new Map<number, number>();
  const made: DemoLetter[] = [];
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
    const file = await store.save(tx, 'letters', `${letterId} ${subject}.${scan ? 'jpg' : 'pdf'}`, bytes, uploader.id);
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
    await recordActivity(
      tx,
      uploader,
      'activity.letter_uploaded',
      { letter: letterId },
      { type: 'letter', id: letter!.id },
    );
    add('letters');
    made.push({ id: letter!.id, uploadedAt, uploader });
  }
  for (const [year, last] of lastByYear) await tx.insert(letterCounters).values({ year, last });
  return made;
}
