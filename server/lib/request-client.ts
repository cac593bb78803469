import type { FastifyRequest } from 'fastify';

/**
 * Where a request came from, as the sessions and the audit trail keep it: the client's address (through TRUST_PROXY)
 * and browser. Routes read it off the request; services take it as a plain value, never the request (decision 104).
 */
export interface RequestClient {
  address: string | null;
  userAgent: string | null;
}

export const clientOf = (req: FastifyRequest): RequestClient => ({
  address: req.ip ?? null,
  userAgent: req.headers['user-agent']?.slice(0, 500) ?? null,
});
