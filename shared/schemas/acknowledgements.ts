import { z } from 'zod';

import { ROLES } from '../constants.ts';
import { todayInIndia } from '../format.ts';
import { msg } from '../messages/index.ts';
import { isoDate, pageQuery } from './common.ts';

/**
 * Circulars and notices that must be acknowledged (decisions 073 and 074). A lab or group notice or
 * circular may be published with "requires acknowledgement", a deadline and an audience; the audience is fixed then,
 * one row per person with their own due date (joiners get the same span from the day they join). Each person lists
 * and acknowledges their own rows; the publisher, the group heads (their group's part), directors and admins read
 * the reports.
 *
 * Counting words, the same everywhere (badge, totals, per-group counts): `pending` is every row not yet
 * acknowledged, overdue ones included; `overdue` is the part of `pending` whose due date has passed (due before
 * today in India); `acknowledged` the rest. So audience = acknowledged + pending.
 */

export const ACKNOWLEDGEMENT_SCOPES = ['lab', 'groups', 'roles'] as const;
/** lab: every approved person of the lab; groups: members of the chosen groups; roles: people holding the roles. */
export type AcknowledgementScope = (typeof ACKNOWLEDGEMENT_SCOPES)[number];
export const ACKNOWLEDGEMENT_STATUSES = ['pending', 'acknowledged'] as const;
export type AcknowledgementStatus = (typeof ACKNOWLEDGEMENT_STATUSES)[number];
/** The two documents that may ask for acknowledgement. */
export const ACKNOWLEDGED_DOCUMENT_KINDS = ['notice', 'circular'] as const;
export type AcknowledgedDocumentKind = (typeof ACKNOWLEDGED_DOCUMENT_KINDS)[number];
/** A group picker lists at most this many groups. */
const MAX_AUDIENCE_GROUPS = 500;

// ---- publishing: optional fields beside a notice's or circular's own --------------------------------------------

/**
 * The acknowledgement settings as a form holds them (the web's publishing form), checked by the same rules as the
 * multipart fields below. `requiresAcknowledgement` undefined means "not said": on create, no acknowledgement; on
 * edit, keep what was published. `audienceScope` undefined takes the default: the whole lab for a lab item, the
 * item's own group for a group item.
 */
const settingsSchema = ({ pastAllowed }: { pastAllowed: boolean }) =>
  z
    .object({
      requiresAcknowledgement: z.boolean().optional(),
      /** YYYY-MM-DD, today (India) or later; required when requiresAcknowledgement. */
      acknowledgeBy: z.string().nullable().optional(),
      audienceScope: z.enum(ACKNOWLEDGEMENT_SCOPES, msg('acknowledgements.audience_scope_invalid')).optional(),
      audienceGroups: z
        .array(z.uuid(msg('acknowledgements.audience_groups_invalid')))
        .max(MAX_AUDIENCE_GROUPS, msg('acknowledgements.audience_groups_invalid'))
        .default([]),
      audienceRoles: z.array(z.enum(ROLES, msg('acknowledgements.audience_roles_invalid'))).default([]),
    })
    .superRefine((v, ctx) => {
      if (!v.requiresAcknowledgement) return;
      const deadline = v.acknowledgeBy ?? '';
      if (!deadline) {
        ctx.addIssue({ code: 'custom', message: msg('acknowledgements.deadline_required'), path: ['acknowledgeBy'] });
      } else if (!isoDate().safeParse(deadline).success) {
        ctx.addIssue({ code: 'custom', message: msg('acknowledgements.deadline_invalid'), path: ['acknowledgeBy'] });
      } else if (!pastAllowed && deadline < todayInIndia()) {
        ctx.addIssue({ code: 'custom', message: msg('acknowledgements.deadline_past'), path: ['acknowledgeBy'] });
      }
      if (v.audienceScope === 'groups' && !v.audienceGroups.length)
        ctx.addIssue({
          code: 'custom',
          message: msg('acknowledgements.audience_groups_required'),
          path: ['audienceGroups'],
        });
      if (v.audienceScope === 'roles' && !v.audienceRoles.length)
        ctx.addIssue({
          code: 'custom',
          message: msg('acknowledgements.audience_roles_required'),
          path: ['audienceRoles'],
        });
    })
    .transform((v) => ({
      requiresAcknowledgement: v.requiresAcknowledgement,
      acknowledgeBy: v.acknowledgeBy || null,
      audienceScope: v.audienceScope,
      audienceGroups: [...new Set(v.audienceGroups.map((g) => g.toLowerCase()))],
      audienceRoles: [...new Set(v.audienceRoles)],
    }));
export const acknowledgementSettingsInput = settingsSchema({ pastAllowed: false });
export type AcknowledgementSettingsInput = z.input<typeof acknowledgementSettingsInput>;
export type AcknowledgementSettings = z.output<typeof acknowledgementSettingsInput>;

/** A multipart field holding a JSON array; anything else is `message`. */
const jsonList = <T extends z.ZodType>(item: T, message: string) =>
  z
    .string()
    .transform((text, ctx): unknown => {
      if (text.trim() === '') return [];
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    })
    .pipe(z.array(item, message));

/**
 * The same settings as optional multipart text fields of POST/PUT /api/labs/{id}/{notices|circulars} and
 * /api/groups/{id}/{notices|circulars}: `requiresAcknowledgement` "true"/"false", `acknowledgeBy` YYYY-MM-DD,
 * `audienceScope` lab|groups|roles, `audienceGroups` and `audienceRoles` JSON arrays. Checked after the item's own
 * fields, so the spec's messages for those come first and stay as they were.
 */
const fieldsSchema = (settings: typeof acknowledgementSettingsInput) =>
  z
    .object({
      requiresAcknowledgement: z
        .enum(['true', 'false'], msg('acknowledgements.requires_invalid'))
        .optional()
        .transform((v) => (v === undefined ? undefined : v === 'true')),
      acknowledgeBy: z.string().trim().optional(),
      audienceScope: z
        .union([z.enum(ACKNOWLEDGEMENT_SCOPES), z.literal('')], msg('acknowledgements.audience_scope_invalid'))
        .optional()
        .transform((v) => v || undefined),
      audienceGroups: jsonList(z.unknown(), msg('acknowledgements.audience_groups_invalid')).optional(),
      audienceRoles: jsonList(z.unknown(), msg('acknowledgements.audience_roles_invalid')).optional(),
    })
    // Then the form's rules, their messages and fields as they are.
    .transform((fields, ctx): AcknowledgementSettings => {
      const checked = settings.safeParse(fields);
      if (checked.success) return checked.data;
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path.slice(0, 1).map(String) });
      return z.NEVER;
    });
export const acknowledgementFieldsInput = fieldsSchema(acknowledgementSettingsInput);
/**
 * The same fields on an edit (PUT): a deadline already past is let through here, as an edit sends back the published
 * settings unchanged; publishing for the first time on an edit still refuses it (the server says
 * `acknowledgements.deadline_past`), and changing a published request is refused as a whole (decision 073).
 */
export const acknowledgementEditFieldsInput = fieldsSchema(settingsSchema({ pastAllowed: true }));
export type AcknowledgementFieldsInput = z.input<typeof acknowledgementFieldsInput>;

// ---- shapes the API answers ---------------------------------------------------------------------------------------

export const groupRefJson = z.object({ _id: z.uuid(), name: z.string() });
export type GroupRefJson = z.infer<typeof groupRefJson>;

export const acknowledgementAudienceJson = z.object({
  scope: z.enum(ACKNOWLEDGEMENT_SCOPES),
  /** scope groups: the chosen groups; scope roles of a group item: its own group (the roles are within it). */
  groups: z.array(groupRefJson),
  /** scope roles: the chosen roles (shared/constants.ts ROLES); else []. */
  roles: z.array(z.enum(ROLES)),
});
export type AcknowledgementAudienceJson = z.infer<typeof acknowledgementAudienceJson>;

/** `acknowledgement` of a lab or group item (notices and circulars): null when it does not ask for one. */
export const itemAcknowledgementJson = z.object({
  /** The request's id: GET /api/acknowledgement-requests/{id}. */
  _id: z.uuid(),
  /** YYYY-MM-DD: the deadline of those in the audience at publishing. */
  deadline: z.string(),
  audience: acknowledgementAudienceJson,
  publishedAt: z.string(),
});
export type ItemAcknowledgementJson = z.infer<typeof itemAcknowledgementJson>;

/** The document a row or a request is about. */
export const acknowledgedDocumentJson = z.object({
  /** The lab item's or group item's id. */
  _id: z.uuid(),
  kind: z.enum(ACKNOWLEDGED_DOCUMENT_KINDS),
  name: z.string(),
  description: z.string(),
  /** Relative link to the file (a group's needs access to the group); null when it has none. */
  fileUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  /** Whose notice or circular it is. */
  owner: z.object({ type: z.enum(['lab', 'group']), _id: z.uuid(), name: z.string() }),
});
export type AcknowledgedDocumentJson = z.infer<typeof acknowledgedDocumentJson>;

// ---- the person's own rows: GET /api/acknowledgements, /count, POST /{id}/open, /{id}/acknowledge ----------------

/** GET /api/acknowledgements?status=pending|acknowledged&limit&offset (paged: X-Total-Count, Link). */
export const myAcknowledgementsQuery = pageQuery.extend({
  status: z.enum(ACKNOWLEDGEMENT_STATUSES, msg('acknowledgements.status_invalid')).default('pending'),
});
export type MyAcknowledgementsQuery = z.input<typeof myAcknowledgementsQuery>;

/** One of the person's rows. Pending: overdue first, then by due date; acknowledged: newest first. */
export const myAcknowledgementJson = z.object({
  /** The row's id: POST /api/acknowledgements/{id}/open and /acknowledge. */
  _id: z.uuid(),
  document: acknowledgedDocumentJson,
  /** YYYY-MM-DD: this person's deadline (a joiner's is counted from when they joined). */
  dueOn: z.string(),
  /** Not acknowledged and due before today (India). */
  overdue: z.boolean(),
  /** When they first opened the document (POST …/open); null until then: Acknowledge needs it. */
  openedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});
export type MyAcknowledgementJson = z.infer<typeof myAcknowledgementJson>;

/** GET /api/acknowledgements/count: the header badge. */
export const acknowledgementCountJson = z.object({ pending: z.number(), overdue: z.number() });
export type AcknowledgementCountJson = z.infer<typeof acknowledgementCountJson>;

/**
 * POST /api/acknowledgements/{id}/acknowledge → 200. A second acknowledge answers the first time again (decision 074):
 * a double click or a retried request is not an error, and the audit trail holds one row.
 */
export const acknowledgeJson = z.object({ _id: z.uuid(), acknowledgedAt: z.string() });
export type AcknowledgeJson = z.infer<typeof acknowledgeJson>;

// ---- reports: GET /api/acknowledgement-requests… -----------------------------------------------------------------

export const acknowledgementTotalsJson = z.object({
  /** People in the audience (of the part this reader may see). */
  audience: z.number(),
  acknowledged: z.number(),
  /** Not yet acknowledged, overdue included. */
  pending: z.number(),
  /** Part of pending: due before today. */
  overdue: z.number(),
});
export type AcknowledgementTotalsJson = z.infer<typeof acknowledgementTotalsJson>;

/** GET /api/acknowledgement-requests?limit&offset: the requests this reader may report on, newest first (paged). */
export const acknowledgementRequestJson = z.object({
  _id: z.uuid(),
  document: acknowledgedDocumentJson,
  deadline: z.string(),
  audience: acknowledgementAudienceJson,
  publishedAt: z.string(),
  publishedBy: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  /**
   * Set when this reader sees only one group's part (a group head who is not the publisher, a director or an admin):
   * the totals, counts, pending list and export are that group's.
   */
  onlyGroup: groupRefJson.nullable(),
  totals: acknowledgementTotalsJson,
});
export type AcknowledgementRequestJson = z.infer<typeof acknowledgementRequestJson>;

/** One group's line of the report; `group` null for people in no group. */
export const acknowledgementGroupCountJson = z.object({
  group: groupRefJson.nullable(),
  acknowledged: z.number(),
  pending: z.number(),
  overdue: z.number(),
});
export type AcknowledgementGroupCountJson = z.infer<typeof acknowledgementGroupCountJson>;

/** GET /api/acknowledgement-requests/{id}: the request, its per-group counts (by group name) and totals. */
export const acknowledgementReportJson = acknowledgementRequestJson.extend({
  groups: z.array(acknowledgementGroupCountJson),
});
export type AcknowledgementReportJson = z.infer<typeof acknowledgementReportJson>;

/** GET /api/acknowledgement-requests/{id}/pending?limit&offset&group: who has not acknowledged (paged). */
export const pendingAcknowledgementsQuery = pageQuery.extend({
  group: z
    .union([z.uuid(msg('acknowledgements.group_invalid')), z.literal('')])
    .optional()
    .transform((v) => (v ? v.toLowerCase() : undefined)),
});
export type PendingAcknowledgementsQuery = z.input<typeof pendingAcknowledgementsQuery>;

/** A person who has not acknowledged: overdue first, then by due date, then by name. */
export const pendingAcknowledgementJson = z.object({
  /** The row's id. */
  _id: z.uuid(),
  user: z.object({ _id: z.uuid(), name: z.string(), email: z.string(), designation: z.string() }),
  /** Their group when they were added to the audience. */
  group: groupRefJson.nullable(),
  dueOn: z.string(),
  overdue: z.boolean(),
  openedAt: z.string().nullable(),
});
export type PendingAcknowledgementJson = z.infer<typeof pendingAcknowledgementJson>;

/**
 * GET /api/acknowledgement-requests/{id}/export.csv (text/csv, audited `exported`): one line per person of the part
 * the reader may see, with these columns; times in IST ("21 Nov 2026, 10:30 am").
 */
export const ACKNOWLEDGEMENT_CSV_COLUMNS = [
  'Name',
  'Email',
  'Designation',
  'Group',
  'Status',
  'Due on',
  'Added on',
  'Opened at',
  'Acknowledged at',
] as const;
