import { randomBytes } from 'node:crypto';
import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { WebhooksErrorCode, type Problem } from '../errors';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { customHeaderProblems, secretNamesIn, type CustomHeader } from './custom-headers';

/**
 * A webhook endpoint (reference `webhooks_endpoint`; docs/webhooks.md): where the dispatcher
 * delivers the organization's events, signed with its secret.
 */
export const webhooksEndpointSchema = defineResource({
  type: 'webhooks_endpoints',
  singular: 'webhooks_endpoint',
  path: '/v1/webhooks/endpoints',
  readTable: 'webhooks_endpoints_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'The name of the endpoint' },
    slug: { type: 'string', derivedFrom: 'name', filter: true, description: 'The slug of the endpoint, derived from its name' },
    url: { type: 'string', required: true, maxLength: 2048, description: 'The URL of the endpoint: absolute, http or https, without credentials (send those in custom_headers through a secret)' },
    event_types: {
      type: 'array',
      items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
      default: [],
      alwaysStored: true,
      description: 'The event types delivered to the endpoint; empty: every type. Duplicates are collapsed',
    },
    secret: {
      type: 'string',
      writable: 'create',
      minLength: 1,
      alwaysStored: true,
      sensitive: 'answered',
      description: 'The webhook signing secret used to verify webhook requests; generated (whsec_ and 32 random bytes in base64) when left out. Never in events or the audit log',
    },
    custom_headers: {
      type: 'array',
      maxLength: 10,
      default: [],
      alwaysStored: true,
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', required: true, maxLength: 256, description: 'An HTTP header name; not a reserved one (Content-Type, Host, the signature headers, ...)' },
          value: { type: 'string', required: true, maxLength: 8192, description: 'The value; {{ secrets.NAME }} is replaced by the secret NAME at send time' },
        },
      },
      description: 'Custom HTTP headers sent with each delivery. Max 10. Reserved names (Content-Type, X-Rootly-Signature, Host, etc.) are rejected',
    },
    enabled: { type: 'boolean', default: true, alwaysStored: true, filter: true, description: 'Whether events are delivered; re-enabling clears failing_since' },
    failing_since: { type: 'date-time', nullable: true, writable: false, description: 'Since when every attempt failed (null after a success): the dispatcher disables an endpoint failing for days' },
  },
});

/** A new endpoint's signing secret (the Standard Webhooks form). */
const generatedSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url must be an absolute http or https URL (got ${JSON.stringify(url)})`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `url must use http or https (got ${parsed.protocol.slice(0, -1)})`;
  // Shown in every answer and event: a receiver's credentials belong in a secret.
  if (parsed.username || parsed.password) return 'url must not carry credentials: send them in custom_headers with a {{ secrets.NAME }} template';
  return null;
}

/**
 * The header values' secrets that are not secrets of the organization, named by their pointers
 * (`custom_headers/<i>/value`). The secrets found are locked until the commit, so a concurrent
 * delete or rename of one waits and then sees this endpoint using it.
 */
async function unknownSecrets(ctx: WriteContext, headers: readonly CustomHeader[]): Promise<Problem[]> {
  const names = [...new Set(headers.flatMap((h) => secretNamesIn(h.value)))];
  if (names.length === 0) return [];
  const rows = (await ctx.manager.query('SELECT name FROM secrets WHERE organization_id = $1 AND name = ANY($2::text[]) FOR SHARE', [ctx.organizationId, names])) as { name: string }[];
  const found = new Set(rows.map((r) => r.name));
  return headers.flatMap((h, i) =>
    secretNamesIn(h.value)
      .filter((name) => !found.has(name))
      .map((name) => ({ attribute: `custom_headers/${i}/value`, detail: `custom_headers[${i}].value: ${name} is not a secret of this organization`, code: WebhooksErrorCode.UnknownSecret })),
  );
}

/** The rules the declaration cannot say, for a create or an update's changes. */
async function checked(ctx: WriteContext, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  const problems: Problem[] = [];
  if (typeof attributes.url === 'string') {
    const problem = urlProblem(attributes.url);
    if (problem) problems.push({ attribute: 'url', detail: problem, code: WebhooksErrorCode.InvalidUrl });
  }
  if (Array.isArray(attributes.event_types)) attributes.event_types = [...new Set(attributes.event_types)];
  if (Array.isArray(attributes.custom_headers)) {
    // Stored as the reference declares them: name and value only.
    const headers = (attributes.custom_headers as CustomHeader[]).map(({ name, value }) => ({ name, value }));
    const shape = customHeaderProblems(headers);
    problems.push(...shape, ...(shape.length ? [] : await unknownSecrets(ctx, headers)));
    attributes.custom_headers = headers;
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  return attributes;
}

export const webhooksEndpointDefinition: ResourceDefinition = {
  schema: webhooksEndpointSchema,
  context: 'webhooks',
  table: 'webhooks_endpoints',
  permission: { family: 'webhooks' },
  rules: {
    beforeCreate: async (input, ctx) => ({ ...(await checked(ctx, input)), secret: input.secret ?? generatedSecret() }),
    async beforeUpdate(current, changes, ctx) {
      const attributes = await checked(ctx, changes);
      // Re-enabled, or aimed at another receiver: its failures so far no longer count towards disabling it.
      const reenabled = attributes.enabled === true && current.enabled === false;
      const moved = typeof attributes.url === 'string' && attributes.url !== current.url;
      return reenabled || moved ? { ...attributes, failing_since: null } : attributes;
    },
  },
};
