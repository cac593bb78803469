import { asc, gt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';

import type { AuditAction, AuditOutcome } from '#shared/audit.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { auditEvents } from '#server/db/schema/index.ts';
import { clockOffset } from '#server/lib/clock.ts';
import { AppError } from '#server/lib/errors.ts';
import { clientOf, type RequestClient } from '#server/lib/request-client.ts';

/**
 * Who an audit event is about and where they were: the person (as they were then: name and role are copied), the
 * client's address (through TRUST_PROXY) and browser.
 */
export interface AuditWho {
  actor: { id: string; name: string; role: string } | null;
  address: string | null;
  userAgent: string | null;
}

/** A person and their client, for `recordAudit` (the plain values a service takes, decision 104). */
export function whoAt(client: RequestClient, actor: AuditWho['actor']): AuditWho {
  return { actor: actor ? { id: actor.id, name: actor.name, role: actor.role } : null, ...client };
}

/** The request's person and client, for `recordAudit`; `actor` overrides the request's (a sign-in names who it was). */
export function auditWho(req: FastifyRequest, actor: AuditWho['actor'] = req.actor): AuditWho {
  return whoAt(clientOf(req), actor);
}

/** What happened, to what, how it ended. */
export interface AuditEvent {
  /** The event's id when the caller must know it before the row is written (a stamp carries it); else a new one. */
  id?: string;
  action: AuditAction;
  object?: { type: string; id: string; label?: string | null } | null;
  /** The object's classification (a letter's or a close-group document's), when it has one. */
  classification?: string | null;
  outcome: AuditOutcome;
  /** Anything else worth keeping (a refusal's code, an export's filters); stored as JSON text and hashed as such. */
  details?: Record<string, unknown> | null;
}

/** The written event: its id (a watermarked download's download id) and place in the chain. */
export interface AuditReceipt {
  id: string;
  seq: number;
  occurredAt: Date;
}

/**
 * The event's details as hashed JSON text, with the clock's offset from NTP_SERVER when it is checked (decision 126):
 * `clockOffsetMs` (the server's clock minus NTP's, in ms) or, while NTP_SERVER does not answer, `clockOffsetMs: null`.
 */
function detailsWithClock(details: AuditEvent['details']): string | null {
  const clock = clockOffset();
  if (clock === undefined) return details ? JSON.stringify(details) : null;
  return JSON.stringify({ ...details, clockOffsetMs: clock });
}

/** The events after `seq`, oldest first, at most `limit` (for the log collector; decision 125). */
export async function auditEventsAfter(db: DbOrTx, seq: number, limit: number) {
  return db.select().from(auditEvents).where(gt(auditEvents.seq, seq)).orderBy(asc(auditEvents.seq)).limit(limit);
}

/**
 * Appends one event to the audit trail (decision 067). Call it inside the transaction of the write it
 * describes; for a read, before the answer is sent and outside any transaction, so the row is committed before the
 * first byte leaves. It fails closed: when the row cannot be written the caller gets 503 `audit.unavailable` and must
 * not serve what it was about to serve (a refusal thrown by the caller after this goes on as the caller meant).
 */
export async function recordAudit(db: DbOrTx, who: AuditWho, event: AuditEvent): Promise<AuditReceipt> {
  try {
    const [row] = await db
      .insert(auditEvents)
      .values({
        // seq, prev_hash, hash and occurred_at are the insert trigger's (migration 0027); these only satisfy NOT NULL.
        seq: 0,
        ...(event.id ? { id: event.id } : {}),
        prevHash: '',
        hash: '',
        occurredAt: new Date(),
        actorId: who.actor?.id ?? null,
        actorName: who.actor?.name ?? null,
        actorRole: who.actor?.role ?? null,
        clientAddress: who.address,
        userAgent: who.userAgent,
        action: event.action,
        objectType: event.object?.type ?? null,
        objectId: event.object?.id ?? null,
        objectLabel: event.object?.label ?? null,
        classification: event.classification ?? null,
        outcome: event.outcome,
        details: detailsWithClock(event.details),
      })
      .returning({ id: auditEvents.id, seq: auditEvents.seq, occurredAt: auditEvents.occurredAt });
    return row!;
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The database's own failure rides along as the cause, for the request log.
    throw Object.assign(new AppError(503, 'audit.unavailable'), { cause: err });
  }
}
