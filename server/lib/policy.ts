import type { FastifyRequest } from 'fastify';

import type { AppError } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * One permission layer (decision 035). Each module that has rules keeps them in `<module>.policy.ts`
 * as a policy: a table of named actions, each a pure function of who asks (`Actor`, or null for a visitor) and what
 * they ask about (a row or facts the service loaded), answering `true` or the refusal to send. Routes and services
 * ask the policy (`authorize` throws the refusal; `allows` answers yes or no), and lists are narrowed by the policy's
 * scopes (SQL conditions) exported beside it. No role is compared anywhere else (server/policy-layer.test.ts).
 */
export type Decision = true | AppError;

// NOTE: any: each rule names its own resource type; the table only needs them to be functions of (actor, resource).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Rule = (actor: Actor | null, resource: any) => Decision;
type Rules = Record<string, Rule>;
type ResourceOf<R extends Rule> = Parameters<R>[1];
/** The resource argument: left out for a rule that takes none. */
type ResourceArgs<R extends Rule> = undefined extends ResourceOf<R> ? [resource?: ResourceOf<R>] : [ResourceOf<R>];

export interface Policy<R extends Rules> {
  /** Throws the rule's refusal unless `actor` may do `action` (to `resource`). */
  authorize<A extends keyof R & string>(actor: Actor | null, action: A, ...resource: ResourceArgs<R[A]>): void;
  /** Whether `actor` may do `action` (to `resource`), for a yes/no the caller words itself (a link, a flag). */
  allows<A extends keyof R & string>(actor: Actor | null, action: A, ...resource: ResourceArgs<R[A]>): boolean;
  /** An onRequest guard for a route whose action needs no resource: `onRequest: [labsPolicy.guard('lab.create')]`. */
  guard<A extends keyof R & string>(action: A): (req: FastifyRequest) => Promise<void>;
}

/** A module's policy from its table of rules. */
export function definePolicy<R extends Rules>(rules: R): Policy<R> {
  const decide = (actor: Actor | null, action: keyof R, resource: unknown): Decision => rules[action]!(actor, resource);
  return {
    authorize(actor, action, ...[resource]) {
      const decision = decide(actor, action, resource);
      if (decision !== true) throw decision;
    },
    allows(actor, action, ...[resource]) {
      return decide(actor, action, resource) === true;
    },
    guard(action) {
      return async (req) => {
        const decision = decide(req.actor, action, undefined);
        if (decision !== true) throw decision;
      };
    },
  };
}
