import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { PROFILE_PHOTO_MAX_PX } from '#shared/constants.ts';
import { messageJson, uuidParam } from '#shared/schemas/common.ts';
import { mailPreferencesInput, mailPreferencesJson } from '#shared/schemas/mail-preferences.ts';
import {
  changePasswordInput,
  directoryUserJson,
  languageInput,
  listUsersQuery,
  pageJson,
  passwordChangedJson,
  updateProfileInput,
  userRecordJson,
} from '#shared/schemas/user.ts';

import { answerCache } from '#server/lib/answer-cache.ts';
import { DEVICE_COOKIE } from '#server/lib/device-cookie.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { prepareJson, sendPrepared } from '#server/lib/prepared-answer.ts';
import { listCloseGroupsOfUser } from '#server/modules/close-groups/close-groups.service.ts';
import { makeWebImage } from '#server/modules/files/images.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { ownMailPreferences, setOwnMailPreferences } from '#server/modules/mail/mail.preferences.ts';
import { setTokenCookie, signedInActor } from '#server/plugins/auth.ts';

import { requirePasswordOwner, requireProfileOwnerOrAdmin, usersPolicy } from './users.policy.ts';
import { presentDirectoryUser, presentProfile, presentUserCloseGroup } from './users.presenter.ts';
import { documentOwnerOf, findUserById } from './users.queries.ts';
import {
  changeOwnPassword,
  listUserDocuments,
  searchDirectory,
  setOwnLanguage,
  setProfilePhoto,
  updateProfile,
} from './users.service.ts';

const directoryListJson = z.array(directoryUserJson);
const directoryPageJson = pageJson(directoryUserJson);

/**
 * NOTE: the staff directory's search is one of the most asked reads of a signed-in morning, and what it lists changes
 * a few times a week. Its answers are kept per search under the directory's version (migration 0019: moved on by the
 * database, in the writing transaction, whenever anything a card shows or a search filters on changes), which every
 * signed-in request reads with its session check: a write is seen by the very next search on every node. The answer
 * is the same whoever asks. At most this many searches are kept.
 */
const directoryAnswers = answerCache('directory', { entries: 500, bytes: 16 * 1024 * 1024 });

/** Profiles, the employee directory and password change (spec §7 Users; decision 005). */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const ownerOrAdmin = [requireProfileOwnerOrAdmin];
  app.fileAccess.register('user-documents', async (db, actor, file) =>
    usersPolicy.allows(actor, 'users.download_document', { userId: await documentOwnerOf(db, file.id) }),
  );

  /** The whole user record (spec §3 User) with its documents and close groups, as the owner and admins see it. */
  const loadProfile = async (id: string) => {
    const found = await findUserById(app.db, id);
    if (!found) throw notFound('users.not_found');
    const [documents, closeGroups] = await Promise.all([
      listUserDocuments(app.db, [id]),
      listCloseGroupsOfUser(app.db, id),
    ]);
    return {
      ...presentProfile(found, documents.get(id) ?? []),
      closeGroup: closeGroups.map(presentUserCloseGroup),
    };
  };

  // The employee directory: approved staff only. An array as spec §7 has it; a page {items, total} when limit or
  // offset is given (decision 005).
  app.get(
    '/api/users',
    {
      schema: {
        querystring: listUsersQuery,
        response: { 200: z.union([directoryListJson, directoryPageJson]) },
      },
    },
    async (req, reply) => {
      const { limit, offset, ...filter } = req.query;
      const paged = limit !== undefined || offset !== undefined;
      const page = paged ? { limit: limit ?? 20, offset: offset ?? 0 } : undefined;
      const key = JSON.stringify([filter.q ?? '', filter.role ?? '', filter.groupId ?? '', page?.limit, page?.offset]);
      // Made once per version of the directory, checked once against the answer's schema.
      const answer = await directoryAnswers(app.db, key, req.directoryVersion!, async () => {
        const { rows, total } = await searchDirectory(app.db, { ...filter, status: 'approved' }, page);
        const items = rows.map(presentDirectoryUser);
        return prepareJson(page ? directoryPageJson.parse({ items, total }) : directoryListJson.parse(items));
      });
      return sendPrepared(req, reply, answer, 'private, no-cache');
    },
  );

  app.get(
    '/api/users/:id',
    { onRequest: ownerOrAdmin, schema: { params: uuidParam, response: { 200: userRecordJson } } },
    // One's own profile (My Account) is kept (server/lib/personal-cache.ts, decision 089): their row, documents and
    // close groups move the versions it is cached under. Someone else's, which only admins read, is made each time.
    async (req, reply) =>
      req.params.id === signedInActor(req).id
        ? sendPersonal(req, reply, async () => ({ body: userRecordJson.parse(await loadProfile(req.params.id)) }))
        : loadProfile(req.params.id),
  );

  app.put(
    '/api/users/:id',
    {
      onRequest: ownerOrAdmin,
      schema: { params: uuidParam, body: updateProfileInput, response: { 200: userRecordJson } },
    },
    async (req) => {
      await updateProfile(app.db, signedInActor(req), req.params.id, req.body);
      return loadProfile(req.params.id);
    },
  );

  app.post(
    '/api/users/:id/upload-photo',
    { onRequest: ownerOrAdmin, schema: { params: uuidParam, response: { 201: z.object({ photo: z.string() }) } } },
    async (req, reply) => {
      const target = await findUserById(app.db, req.params.id);
      if (!target) throw notFound('users.not_found');
      const options = {
        area: 'profile-photos',
        kind: 'image',
        fileField: 'photo',
        maxBytes: app.config.uploadMaxBytes,
      } as const;
      return withReceivedUpload(req, options, async (upload) => {
        if (!upload.file) throw badRequest('users.photo_required', 'photo');
        // Only a small copy is kept: a profile photo is shown at avatar size (the directory lists thousands), and the
        // re-encoding drops the camera's EXIF data, GPS included (decision 005).
        const photo = await upload.replaceWith(
          await makeWebImage(app.storage, app.config.sandbox, upload.file, PROFILE_PHOTO_MAX_PX, 'photo'),
        );
        const saved = await setProfilePhoto(app.db, app.storage, signedInActor(req), req.params.id, photo);
        return reply.code(201).send({ photo: fileUrl('profile-photos', saved.photoFileId)! });
      });
    },
  );

  // The language the person chose in the portal, sent by the web at sign-in and at each switch: their mail is written
  // in it. Each person sets their own; there is no one else's to set.
  app.put(
    '/api/users/me/language',
    { schema: { body: languageInput, response: { 200: messageJson } } },
    async (req) => {
      await setOwnLanguage(app.db, signedInActor(req), req.body.language);
      return { message: 'Language saved.' };
    },
  );

  // How the person wants each kind of mail (decision 081): now, in the morning digest, or off. Each person
  // chooses their own; without SMTP_URL the answer says so (`email: false`) and a change is refused.
  // Kept per person: the choices are on their own row, whose version the answer is cached under.
  app.get(
    '/api/users/me/mail-preferences',
    { schema: { response: { 200: mailPreferencesJson } } },
    async (req, reply) =>
      sendPersonal(req, reply, async () => ({
        body: mailPreferencesJson.parse(await ownMailPreferences(app.db, signedInActor(req), app.config.mail)),
      })),
  );
  app.put(
    '/api/users/me/mail-preferences',
    { schema: { body: mailPreferencesInput, response: { 200: mailPreferencesJson } } },
    async (req) => {
      await setOwnMailPreferences(app.db, signedInActor(req), app.config.mail, req.body);
      return ownMailPreferences(app.db, signedInActor(req), app.config.mail);
    },
  );

  // A signed-in user changes their own password (the current one is required). Every earlier session ends; this
  // device gets the one new token (decision 003).
  app.put(
    '/api/users/:id/password',
    {
      onRequest: [requirePasswordOwner],
      schema: { params: uuidParam, body: changePasswordInput, response: { 200: passwordChangedJson } },
    },
    async (req, reply) => {
      // A directory account's password is the directory's (decision 062): changed there, never here.
      const own = await findUserById(app.db, signedInActor(req).id);
      usersPolicy.authorize(signedInActor(req), 'users.change_password_here', { authSource: own?.user.authSource });
      // currentPassword guesses (a stolen token) are throttled as sign-in failures of the account (decision 014);
      // the person's own browser carries its device cookie (decision 041).
      const saved = await app.throttle.passwordCheck(
        { account: signedInActor(req).email, address: req.ip, deviceCookie: req.cookies[DEVICE_COOKIE] },
        () =>
          changeOwnPassword(
            app.db,
            app.config.passwords,
            signedInActor(req),
            req.body.currentPassword,
            req.body.newPassword,
          ),
        (err) => (err as { field?: string }).field === 'currentPassword',
      );
      const token = await app.startSession(app.db, saved, req, {
        method: 'password',
        secondFactor: signedInActor(req).session?.secondFactor ?? null,
      });
      setTokenCookie(req, reply, token);
      return { message: 'Password changed successfully!', token };
    },
  );
};
