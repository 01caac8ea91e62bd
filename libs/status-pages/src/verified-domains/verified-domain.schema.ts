import { randomBytes } from 'node:crypto';
import { defineResource, JsonApiError } from '@taproot/json-api';
import { ResourceWriter, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { VerifiedDomainsErrorCode } from './errors';

export const VERIFICATION_STATUSES = ['pending', 'verified', 'failing', 'expired'] as const;
/** The name under the domain where its owner publishes the challenge. */
export const CHALLENGE_LABEL = '_taproot-challenge';

const output = (type: 'string' | 'date-time' | 'integer', description: string, nullable = false) => ({ type, writable: false as const, nullable, description });

/**
 * A custom domain of the organization (status pages served on it) and its DNS TXT challenge
 * (the hosted API's `verified_domain`): created `pending` with the record to publish,
 * `POST /v1/verified_domains/{id}/verify` checks it (docs/status-pages.md, "Verified domains").
 */
export const verifiedDomainSchema = defineResource({
  type: 'verified_domains',
  singular: 'verified_domain',
  path: '/v1/verified_domains',
  readTable: 'verified_domains_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'delete'],
  attributes: {
    domain: { type: 'string', required: true, writable: 'create', minLength: 1, maxLength: 253, filter: ['eq', 'in'], sortable: true, description: 'The domain to verify (e.g. status.acme.com): a hostname, without scheme, port or path; kept lower-cased' },
    verification_status: { ...output('string', 'pending until the TXT record is found; verified once found; failing when a verified domain’s record is gone'), enum: VERIFICATION_STATUSES, filter: ['eq', 'in'] },
    verification_token: output('string', 'The random token the TXT record must hold'),
    txt_host: output('string', `The TXT record's name: ${CHALLENGE_LABEL}.<domain>`),
    txt_value: output('string', "The TXT record's value: the verification token"),
    verified_at: output('date-time', 'When the domain was first verified', true),
    last_checked_at: output('date-time', 'When the domain was last checked', true),
    last_check_passed_at: output('date-time', 'When the TXT record was last found', true),
    check_failures_count: output('integer', 'Checks that failed since the last one that passed'),
    source: { ...output('string', 'How the domain was added: manual (through the API)'), enum: ['manual', 'migration', 'oauth_auto'] },
  },
});

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The hostname a client sent, lower-cased without a final dot; a refusal naming `domain` for anything else. */
export function normalizedDomain(raw: string): string {
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  const refuse = (why: string) => JsonApiError.invalidAttributes([{ attribute: 'domain', detail: `domain ${why} (got ${JSON.stringify(raw)})`, code: VerifiedDomainsErrorCode.InvalidDomain }]);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(domain)) throw refuse('must be a hostname without a scheme');
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) {
    throw refuse('must be a hostname such as status.example.com: two or more labels of letters, digits and inner hyphens, no port or path');
  }
  return domain;
}

async function challenge(attributes: Row, ctx: WriteContext): Promise<Row> {
  const domain = normalizedDomain(String(attributes.domain));
  // Domains are added one at a time: a concurrent add of the domain is seen here (422), not by the unique index (500).
  await new ResourceWriter(verifiedDomainDefinition).takeTurns(ctx);
  const taken = (await ctx.manager.query('SELECT 1 FROM verified_domains WHERE organization_id = $1 AND domain = $2', [ctx.organizationId, domain])) as unknown[];
  if (taken.length) throw JsonApiError.invalidAttributes([{ attribute: 'domain', detail: `domain ${domain} is already a verified domain of this organization`, code: VerifiedDomainsErrorCode.DomainTaken }]);
  const token = randomBytes(24).toString('base64url');
  return { domain, verification_status: 'pending', verification_token: token, txt_host: `${CHALLENGE_LABEL}.${domain}`, txt_value: token, check_failures_count: 0, source: 'manual' };
}

export const verifiedDomainDefinition: ResourceDefinition = {
  schema: verifiedDomainSchema,
  context: 'status-pages',
  table: 'verified_domains',
  // Custom domains exist to serve status pages: their family.
  permission: { family: 'status_pages' },
  rules: { beforeCreate: challenge },
};
