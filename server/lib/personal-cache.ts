import type { FastifyReply, FastifyRequest } from 'fastify';

import { todayInIndia } from '#shared/format.ts';

import { answerCache } from './answer-cache.ts';
import { type PreparedAnswer, prepareJson, sendPrepared } from './prepared-answer.ts';

/**
 * NOTE: a signed-in person's own reads (the letters register and inbox, the badges, the bell, acknowledgements, the
 * Groups menu, the group page, their profile and My Account; decision 089 lists them) are asked on every screen they
 * open and change a few times a day. Their answers are kept per person and address under the version of everything they
 * are made from:
 * - `personal`: moved by the database at the commit of any write to the tables those reads show (migration 0034);
 * - `directory`: the names and roles the answers show (migrations 0019 and 0034);
 * - the person's own row and their group's (`accountVersion`: a new role, clearance or group changes what they see);
 * - the day in India (a delegation runs by dates; a letter falls overdue, a deadline passes, a close group ends).
 * The three versions are read with the session check of every signed-in request, so a write is seen by the very next
 * read on every node: nothing is stale and nothing is announced. Keyed by the person and the request's address
 * (path and query), never shared between people.
 */
const personalCache = answerCache('personal', { entries: 30_000, bytes: 128 * 1024 * 1024 });

/** What a cached answer is cached under (see above). */
export function personalVersion(req: FastifyRequest): string {
  return `${req.personalVersion}:${req.directoryVersion}:${req.accountVersion}:${todayInIndia()}`;
}

/**
 * The signed-in person's answer to this address: the one kept for them while what it is made from is unchanged, else
 * made by `make` and kept. Made fresh, and not kept, for a request without a person.
 */
export function personalAnswer(req: FastifyRequest, make: () => Promise<PreparedAnswer>): Promise<PreparedAnswer> {
  const actor = req.actor;
  if (!actor || req.personalVersion === undefined) return make(); // never for a visitor: cached answers are a person's
  return personalCache(req.server.db, `${actor.id} ${req.url}`, personalVersion(req), make);
}

/**
 * Sends the signed-in person's answer to this address, made by `make` (checked against its schema there) only when
 * what it is made from has changed since it was last made.
 */
export async function sendPersonal(
  req: FastifyRequest,
  reply: FastifyReply,
  make: () => Promise<{ body: unknown; headers?: Record<string, string> }>,
): Promise<FastifyReply> {
  const answer = await personalAnswer(req, async () => {
    const { body, headers } = await make();
    return prepareJson(body, headers);
  });
  return sendPrepared(req, reply, answer, 'private, no-cache');
}
