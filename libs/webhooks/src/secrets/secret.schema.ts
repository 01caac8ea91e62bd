import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { WebhooksError, WebhooksErrorCode, type Problem } from '../errors';
import { HEADER_BREAKING, SECRET_NAME, secretNamesIn } from '../endpoints/custom-headers';

export const SECRET_KINDS = ['built_in', 'hashicorp_vault'] as const;

/**
 * A secret (reference `secret`; docs/webhooks.md): a value webhook endpoints' custom headers use
 * through `{{ secrets.NAME }}`, so a receiver's token is never stored in a header in plain text.
 * Its value is write-only. Taproot keeps values itself (`built_in`): it has no Vault connection.
 */
export const secretSchema = defineResource({
  type: 'secrets',
  singular: 'secret',
  path: '/v1/secrets',
  readTable: 'secrets_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, maxLength: 255, filter: true, sortable: true, description: 'The name of the secret, unique in the organization: letters, digits and _, not starting with a digit ({{ secrets.NAME }})' },
    kind: { type: 'string', enum: SECRET_KINDS, default: 'built_in', writable: 'create', alwaysStored: true, filter: true, description: 'The kind of the secret; Taproot keeps built_in secrets only (it has no HashiCorp Vault connection)' },
    secret: {
      type: 'string',
      required: true,
      minLength: 1,
      maxLength: 8192,
      sensitive: 'write-only',
      description: 'The secret (write-only: answered as ********); sent in header values, so without CR, LF or NUL',
    },
    hashicorp_vault_mount: { type: 'string', writable: false, default: 'secret', description: 'The HashiCorp Vault secret mount path (unused: no Vault connection; a sent value is ignored)' },
    hashicorp_vault_path: { type: 'string', nullable: true, writable: false, description: 'The HashiCorp Vault secret path (unused; a sent value is ignored)' },
    hashicorp_vault_version: { type: 'integer', writable: false, default: 0, description: 'The HashiCorp Vault secret version (unused; a sent value is ignored)' },
  },
});

/** Serializes name changes in the organization until the commit, so two cannot take one name. */
const takeNameTurn = (ctx: WriteContext) => ctx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`secrets:names:${ctx.organizationId}`]);

/** The endpoints of the organization whose custom headers name the secret, as `'name' (id)`. */
async function endpointsUsing(ctx: WriteContext, name: string): Promise<string[]> {
  const rows = (await ctx.manager.query("SELECT id, name, custom_headers FROM webhooks_endpoints WHERE organization_id = $1 AND custom_headers <> '[]' ORDER BY created_at, id", [
    ctx.organizationId,
  ])) as { id: string; name: string; custom_headers: { value: string }[] }[];
  return rows.filter((e) => e.custom_headers.some((h) => secretNamesIn(h.value).includes(name))).map((e) => `'${e.name}' (${e.id})`);
}

/** A secret the custom headers of endpoints still name is neither deleted nor renamed: they would fail at send time. */
async function assertUnused(ctx: WriteContext, name: string, doing: string, pointer?: string): Promise<void> {
  const users = await endpointsUsing(ctx, name);
  if (users.length) throw new WebhooksError(WebhooksErrorCode.SecretInUse, `secret ${name} cannot be ${doing}: the custom headers of webhook endpoint${users.length > 1 ? 's' : ''} ${users.join(', ')} use it`, pointer);
}

/** The rules the declaration cannot say: a template-friendly name free in the organization, a value fit for a header, a kind Taproot keeps. */
async function checked(ctx: WriteContext, attributes: Row, id?: string): Promise<void> {
  const problems: Problem[] = [];
  const { name, secret, kind } = attributes;
  if (kind === 'hashicorp_vault') problems.push({ attribute: 'kind', detail: 'kind hashicorp_vault is not available: Taproot has no HashiCorp Vault connection; store the value as built_in', code: WebhooksErrorCode.UnsupportedSecretKind });
  if (typeof secret === 'string' && HEADER_BREAKING.test(secret)) problems.push({ attribute: 'secret', detail: 'secret must not contain CR, LF or NUL: it is sent in header values', code: WebhooksErrorCode.InvalidSecret });
  if (typeof name === 'string') {
    if (!SECRET_NAME.test(name)) {
      problems.push({ attribute: 'name', detail: `name must be letters, digits and _, not starting with a digit, as {{ secrets.NAME }} names it (got ${JSON.stringify(name)})`, code: WebhooksErrorCode.InvalidSecret });
    } else {
      await takeNameTurn(ctx);
      const [taken] = (await ctx.manager.query('SELECT 1 FROM secrets WHERE organization_id = $1 AND name = $2 AND id IS DISTINCT FROM $3', [ctx.organizationId, name, id ?? null])) as unknown[];
      if (taken) problems.push({ attribute: 'name', detail: `name ${name} is already the name of a secret of this organization`, code: WebhooksErrorCode.NameTaken });
    }
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
}

export const secretDefinition: ResourceDefinition = {
  schema: secretSchema,
  context: 'webhooks',
  table: 'secrets',
  // The incident response roles' secrets field: administrators only (the seeded User and Observer roles do not read it).
  permission: { family: 'secrets' },
  rules: {
    async beforeCreate(attributes, ctx) {
      await checked(ctx, attributes);
      return attributes;
    },
    async beforeUpdate(current, changes, ctx) {
      await checked(ctx, changes, String(current.id));
      if (typeof changes.name === 'string' && changes.name !== current.name) await assertUnused(ctx, String(current.name), 'renamed', '/data/attributes/name');
      return changes;
    },
    beforeDelete: (current, ctx) => assertUnused(ctx, String(current.name), 'deleted'),
  },
};
