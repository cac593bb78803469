import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { AuditOutcome } from '#shared/audit.ts';
import { todayInIndia } from '#shared/format.ts';
import {
  type AuditEventJson,
  auditEventPageJson,
  auditEventsQuery,
  auditExportQuery,
  type AuditFilter,
} from '#shared/schemas/audit.ts';

import type { AuditEventRow } from '#server/db/schema/index.ts';
import { sendPagingHeaders } from '#server/lib/paging.ts';

import { auditTrailPolicy } from './audit-trail.policy.ts';
import { AUDIT_EXPORT_MAX, auditEventsCsv, listAuditEvents } from './audit-trail.service.ts';
import { auditWho, recordAudit } from './audit-trail.ts';

/** The trail itself as an event's object: its reads and exports are events of their own. */
const TRAIL = { type: 'audit_trail', id: 'audit_trail', label: 'Audit trail' };

/** The filters that were given, for an event's details (an empty filter is left out). */
const givenFilters = (filter: AuditFilter) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ''));

/** A row as the API shows it: as it was written, the details parsed back from the JSON text that was hashed. */
export function presentAuditEvent(e: AuditEventRow): AuditEventJson {
  let details: AuditEventJson['details'] = null;
  if (e.details) {
    try {
      details = JSON.parse(e.details) as AuditEventJson['details'];
    } catch {
      details = { text: e.details };
    }
  }
  return {
    _id: e.id,
    seq: e.seq,
    occurredAt: e.occurredAt.toISOString(),
    actor: e.actorId || e.actorName ? { _id: e.actorId ?? '', name: e.actorName ?? '', role: e.actorRole ?? '' } : null,
    address: e.clientAddress,
    userAgent: e.userAgent,
    action: e.action,
    object: e.objectType && e.objectId ? { type: e.objectType, id: e.objectId, label: e.objectLabel } : null,
    classification: e.classification,
    outcome: e.outcome as AuditOutcome,
    details,
  };
}

/**
 * Admin → Audit Trail (decision 069): the events newest first, filtered and paged by the server, and their
 * CSV. Admins and directors read them ('audit.read'); every read and export is itself an event, written before the
 * answer leaves, so a read that cannot be recorded is not served (503 `audit.unavailable`).
 */
export const auditTrailRoutes: FastifyPluginAsyncZod = async (app) => {
  const readers = [auditTrailPolicy.guard('audit.read')];

  app.get(
    '/api/audit/events',
    {
      onRequest: readers,
      config: { paged: true },
      schema: {
        description:
          'The audit trail, newest first: filtered by person (an id, or text in a name or email), object (an id, or ' +
          'text in its label), action, classification, outcome and days (India time, both included); a page ' +
          '{items, total, capped}, the total counted up to 1,000.',
        querystring: auditEventsQuery,
        response: { 200: auditEventPageJson },
      },
    },
    async (req, reply) => {
      const { limit, offset, ...filter } = req.query;
      const { rows, total, capped } = await listAuditEvents(app.db, filter, { limit, offset });
      await recordAudit(app.db, auditWho(req), {
        action: 'audit_read',
        object: TRAIL,
        outcome: 'success',
        details: { filters: givenFilters(filter), offset, limit, returned: rows.length },
      });
      sendPagingHeaders(req, reply, { limit, offset, count: rows.length, total, capped });
      return { items: rows.map(presentAuditEvent), total, capped };
    },
  );

  // A link, authorised by the sign-in cookie as file links are: the browser downloads it.
  app.get(
    '/api/audit/events.csv',
    {
      onRequest: readers,
      schema: {
        description:
          'Every event matching the filters of GET /api/audit/events (at most 100,000, newest first) as CSV, times in ' +
          'IST; the export is itself an event of the trail.',
        querystring: auditExportQuery,
      },
    },
    async (req, reply) => {
      const filter = req.query;
      await recordAudit(app.db, auditWho(req), {
        action: 'audit_exported',
        object: TRAIL,
        outcome: 'success',
        details: { filters: givenFilters(filter), max: AUDIT_EXPORT_MAX },
      });
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-trail-${todayInIndia()}.csv"`)
        .header('Cache-Control', 'private, no-store')
        .send(Readable.from(auditEventsCsv(app.db, filter)));
    },
  );
};
