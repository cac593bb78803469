// The demo's software and trial repositories (server/demo/demo-seed.ts).
import { softwareRepos, trialRepos } from '#server/db/schema/index.ts';
import { storedZip } from '#server/lib/zip.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import { DEMO_GROUPS, GALLERY } from './demo-data.ts';
import { makePdf, makePhoto } from './demo-files.ts';
import { type DemoWorld, type SeedContext } from './demo-seed-context.ts';

const groupName = (key: string) => DEMO_GROUPS.find((g) => g.key === key)!.name;

/** Software repositories (code, documents, ZIPs) and trial repositories with their files. */
export async function seedRepositories(ctx: SeedContext, world: DemoWorld): Promise<void> {
  const { tx, store, daysAgo, add, heading } = ctx;
  const { groupIds, byGroup, heads } = world;
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
    await recordActivity(
      tx,
      uploader,
      'activity.software_repo_uploaded',
      {
        name: spec.file ? `${spec.slug}.${spec.file}` : `${repoHost}/${spec.group}/${spec.slug}`,
        type: activityWord(spec.type),
        group: groupName(spec.group),
      },
      { type: 'group', id: groupIds.get(spec.group)! },
    );
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
    await recordActivity(
      tx,
      uploader,
      'activity.trial_repo_uploaded',
      { name, type: spec.type, group: groupName(spec.group) },
      { type: 'group', id: groupIds.get(spec.group)! },
    );
    add('trial repositories');
  }
}
