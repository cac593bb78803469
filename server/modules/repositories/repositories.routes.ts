import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson, pageQuery, uuidParam } from '#shared/schemas/common.ts';
import { groupNameJson } from '#shared/schemas/group.ts';
import { softwareRepoInput, softwareRepoJson, trialRepoInput, trialRepoJson } from '#shared/schemas/repository.ts';

import { pagingHeaders, totalFromLastPage } from '#server/lib/paging.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { parseFields } from '#server/lib/validation.ts';
import { type UploadOptions, withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { repositoriesPolicy } from './repositories.policy.ts';
import { presentSoftwareRepo, presentTrialRepo } from './repositories.presenter.ts';
import {
  assertCanUploadTo,
  canOpenSoftwareRepoFile,
  canOpenTrialRepoFile,
  countSoftwareRepos,
  countTrialRepos,
  createSoftwareRepo,
  createTrialRepo,
  deleteSoftwareRepo,
  deleteTrialRepo,
  listSoftwareRepos,
  listTrialRepos,
  listUploadGroups,
  SOFTWARE_AREA,
  TRIAL_AREA,
} from './repositories.service.ts';

/** Spec §7 Repositories: GET/POST /api/softwareRepo and /api/trialRepo (also written with a trailing slash), plus DELETE. */
const softwareRepoListJson = z.array(softwareRepoJson);
const trialRepoListJson = z.array(trialRepoJson);

export const repositoriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.fileAccess.register(SOFTWARE_AREA, canOpenSoftwareRepoFile);
  app.fileAccess.register(TRIAL_AREA, canOpenTrialRepoFile);
  const uploaders = [repositoriesPolicy.guard('repositories.upload')];

  /**
   * How a repository upload is received: large files allowed, and refused as the file begins when the fields sent
   * before it are already wrong (bad input, a group the sender may not use), so a refused 1 GB upload is never written
   * to disk. Without both group and type yet, the whole form is judged once it has arrived.
   */
  const uploadOptions = (
    area: typeof SOFTWARE_AREA | typeof TRIAL_AREA,
    schema: typeof softwareRepoInput | typeof trialRepoInput,
    req: FastifyRequest,
  ): UploadOptions => ({
    area,
    kind: area === SOFTWARE_AREA ? 'softwareRepo' : 'trialRepo',
    fileField: 'file',
    maxBytes: app.config.largeUploadMaxBytes,
    beforeFile: async (fields) => {
      if (!fields.group || !fields.type) return;
      parseFields(schema, { ...fields, file: true });
      await assertCanUploadTo(app.db, signedInActor(req), fields.group);
    },
  });

  // The Group select of both upload forms offers only the groups the sender may upload to.
  app.get(
    '/api/repositories/upload-groups',
    { onRequest: uploaders, schema: { response: { 200: z.array(groupNameJson) } } },
    async (req) => (await listUploadGroups(app.db, signedInActor(req))).map((g) => ({ _id: g.id, name: g.name })),
  );

  app.get(
    '/api/softwareRepo',
    {
      config: { paged: true },
      schema: { querystring: pageQuery, response: { 200: softwareRepoListJson } },
    },
    // Kept per person until a repository changes (server/lib/personal-cache.ts, decision 089), as the trial list.
    async (req, reply) =>
      sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const rows = await listSoftwareRepos(app.db, actor, req.query);
        const total = totalFromLastPage(req.query, rows.length) ?? (await countSoftwareRepos(app.db, actor));
        return {
          body: softwareRepoListJson.parse(rows.map(presentSoftwareRepo)),
          headers: pagingHeaders(req.url, { ...req.query, count: rows.length, total }),
        };
      }),
  );

  app.post(
    '/api/softwareRepo',
    { onRequest: uploaders, schema: { response: { 201: softwareRepoJson } } },
    async (req, reply) => {
      const options = uploadOptions(SOFTWARE_AREA, softwareRepoInput, req);
      return withReceivedUpload(req, options, async ({ fields, file }) => {
        const values = parseFields(softwareRepoInput, { ...fields, file });
        const record = await createSoftwareRepo(app.db, signedInActor(req), values, file);
        return reply.code(201).send(presentSoftwareRepo(record));
      });
    },
  );

  app.get(
    '/api/trialRepo',
    { config: { paged: true }, schema: { querystring: pageQuery, response: { 200: trialRepoListJson } } },
    async (req, reply) =>
      sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const rows = await listTrialRepos(app.db, actor, req.query);
        const total = totalFromLastPage(req.query, rows.length) ?? (await countTrialRepos(app.db, actor));
        return {
          body: trialRepoListJson.parse(rows.map(presentTrialRepo)),
          headers: pagingHeaders(req.url, { ...req.query, count: rows.length, total }),
        };
      }),
  );

  app.post(
    '/api/trialRepo',
    { onRequest: uploaders, schema: { response: { 201: trialRepoJson } } },
    async (req, reply) => {
      const options = uploadOptions(TRIAL_AREA, trialRepoInput, req);
      return withReceivedUpload(req, options, async ({ fields, file }) => {
        const values = parseFields(trialRepoInput, { ...fields, file });
        const record = await createTrialRepo(app.db, signedInActor(req), values, file!);
        return reply.code(201).send(presentTrialRepo(record));
      });
    },
  );

  app.delete(
    '/api/softwareRepo/:id',
    { schema: { params: uuidParam, response: { 200: messageJson } } },
    async (req) => {
      await deleteSoftwareRepo(app.db, app.storage, signedInActor(req), req.params.id);
      return { message: 'Software repository deleted.' };
    },
  );

  app.delete('/api/trialRepo/:id', { schema: { params: uuidParam, response: { 200: messageJson } } }, async (req) => {
    await deleteTrialRepo(app.db, app.storage, signedInActor(req), req.params.id);
    return { message: 'Trial repository deleted.' };
  });
};
