import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

import { allMessages } from '#shared/messages/index.ts';

import { TOKEN_COOKIE } from './auth.ts';

/** Every code with its English sentence, as a Markdown table for the docs' description (built once). */
const codeTable = () =>
  [
    '| code | English sentence |',
    '|---|---|',
    ...allMessages().map(([code, text]) => `| \`${code}\` | ${text.replace(/\|/g, '\\|')} |`),
  ].join('\n');

/** The one error shape of every failure (server/app.ts errorBody; decision 034). */
const errorSchema = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'A sentence for the screen, in English (spec §8).' },
    message: { type: 'string', description: 'The same sentence.' },
    code: {
      type: 'string',
      // The activity log's codes (decision 060) word actions, never a refusal.
      enum: [...new Set(allMessages().map(([code]) => code))].filter((code) => !code.startsWith('activity.')),
      description: "What was refused, stable across versions: the screens word it in the reader's language.",
    },
    params: {
      type: 'object',
      description:
        "The values of the sentence's {{places}} (a name, a number; `count` picks the plural). A value may itself be " +
        '`{code, params}` (a wait such as "5 minutes").',
    },
    field: { type: 'string', description: 'The input it concerns, when there is one.' },
  },
  required: ['error', 'message', 'code'],
};
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

/** What every list that pages sends beside its array (server/lib/paging.ts; README "API"). */
export const PAGING_HEADERS = {
  'X-Total-Count': {
    type: 'integer',
    description:
      'How many items match the filters, on every page together (not only this one). When X-Total-Count-Capped is ' +
      'sent, more match than this and the count stopped here.',
  },
  'X-Total-Count-Capped': {
    type: 'string',
    enum: ['true'],
    description:
      'Sent only when the count stopped at its cap (GET /api/dac: 10,000 letters; GET /admin/logs: 1,000 entries).',
  },
  Link: {
    type: 'string',
    description:
      'The next page while there is one: `</api/dac?q=x&limit=20&offset=20>; rel="next"` (the same filters, the next ' +
      'offset). Absent on the last page.',
  },
};

/**
 * OpenAPI 3.1 generated from the same zod route schemas the routes validate with: `GET /api/docs` (a
 * browsable page) and `GET /api/docs/json`. Every route states whether it needs a sign-in (deny by default: those not
 * declared `config: { public: true }` do) and the error answers it can give. The docs are for signed-in staff; a
 * browser sends the sign-in cookie on these GETs.
 */
export async function registerApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lab Portal API',
        version: '1',
        description:
          'The API of the lab portal (../shared/spec/portal-spec.md §7). Sign in with POST /api/auth/login and send ' +
          '`Authorization: Bearer <token>`. Lists that page say so with `X-Total-Count` and a `Link: <…>; rel="next"` header.' +
          '\n\nEvery failure answers `{error, message, code, params?, field?}`. The codes:\n\n' +
          codeTable(),
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: TOKEN_COOKIE, description: 'Accepted on GET and HEAD only.' },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const isPublic = Boolean((input.route.config as { public?: boolean } | undefined)?.public);
      const schema = (out.schema ?? {}) as Record<string, unknown>;
      const responses = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
      if ((input.route.config as { paged?: boolean } | undefined)?.paged && responses['200']) {
        responses['200'] = { ...(responses['200'] as object), headers: PAGING_HEADERS };
      }
      responses['400'] ??= errorResponse('Bad input: the message names what is wrong.');
      if (!isPublic) {
        responses['401'] ??= errorResponse('Not signed in, or the sign-in has ended.');
        responses['403'] ??= errorResponse('Signed in, but not allowed.');
      }
      responses['503'] ??= errorResponse('The database is not available right now.');
      const security: Record<string, string[]>[] = isPublic ? [] : [{ bearer: [] }, { cookie: [] }];
      return { ...out, schema: { ...schema, response: responses, security } };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Its own policy, as strict as the portal's (decision 116): framed by no page, nothing fetched from outside.
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/ https:| validator\.swagger\.io/g, ''),
  });
}
