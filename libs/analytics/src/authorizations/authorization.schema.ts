import { existingTeamIds, existingUserIds } from '@taproot/identity';
import { defineResource, existingIds, isUuid, JsonApiError } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';

export const AUTHORIZATION_PERMISSIONS = ['read', 'update', 'authorize', 'destroy'] as const;

/** What each grantee type names, through identity's ports (users by integer id, teams by uuid). */
const GRANTEES: Record<string, Reference> = {
  User: { noun: 'user', code: 'UNKNOWN_REFERENCE', existing: existingUserIds },
  Team: { noun: 'team', code: 'UNKNOWN_REFERENCE', existing: existingTeamIds },
};
/** What each authorizable type names: dashboards, this context's own. */
const AUTHORIZABLES: Record<string, Reference> = {
  Dashboard: { noun: 'dashboard', code: 'UNKNOWN_REFERENCE', existing: (db, org, ids) => existingIds(db, 'dashboards', org, ids) },
};

/**
 * A grant of permissions on a record (a dashboard) to a user or a team (docs/authorizations.md).
 * Stored and answered; no route enforces it yet. What it names is fixed at create: an update
 * changes its permissions only (the hosted API's update_authorization).
 */
export const authorizationSchema = defineResource({
  type: 'authorizations',
  singular: 'authorization',
  path: '/v1/authorizations',
  readTable: 'authorizations_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    authorizable_id: { type: 'string', required: true, writable: 'create', minLength: 1, filter: ['eq'], description: 'The id of the resource being accessed.' },
    // The hosted API's Terraform provider may leave both types out: Dashboard is the only authorizable, the grantee's follows from its id.
    authorizable_type: { type: 'string', enum: ['Dashboard'], default: 'Dashboard', writable: 'create', filter: ['eq'], description: 'The type of resource being accessed.' },
    grantee_id: { type: 'string', required: true, writable: 'create', minLength: 1, integerAsText: true, filter: ['eq'], description: 'The resource id granted access.' },
    grantee_type: { type: 'string', enum: ['User', 'Team'], writable: 'create', alwaysStored: true, filter: ['eq'], description: 'The type of resource granted access; when left out, Team for a uuid and User otherwise.' },
    permissions: { type: 'array', required: true, items: { type: 'string', enum: AUTHORIZATION_PERMISSIONS }, description: 'What the grantee may do with the resource.' },
  },
});

/** Each permission once, in the enum's order, so a grant compares and reads the same however it was sent. */
const normalised = (permissions: unknown) => AUTHORIZATION_PERMISSIONS.filter((p) => (permissions as string[]).includes(p));

async function checkedGrant(attributes: Row, ctx: WriteContext): Promise<Row> {
  const granteeType = (attributes.grantee_type as string | undefined) ?? (isUuid(String(attributes.grantee_id)) ? 'Team' : 'User');
  const authorizableType = String(attributes.authorizable_type);
  const checked = await checkReferenced(ctx, { ...attributes, grantee_type: granteeType }, { authorizable_id: AUTHORIZABLES[authorizableType], grantee_id: GRANTEES[granteeType] });
  const [taken] = (await ctx.manager.query(
    'SELECT id FROM authorizations WHERE organization_id = $1 AND authorizable_type = $2 AND authorizable_id = $3 AND grantee_type = $4 AND grantee_id = $5',
    [ctx.organizationId, authorizableType, checked.authorizable_id, granteeType, checked.grantee_id],
  )) as { id: string }[];
  if (taken) {
    throw JsonApiError.invalidAttributes([{ attribute: 'grantee_id', detail: `${granteeType} ${String(checked.grantee_id)} already has authorization ${taken.id} on this ${authorizableType.toLowerCase()}: update its permissions`, code: 'TAKEN' }]);
  }
  return { ...checked, permissions: normalised(checked.permissions) };
}

export const authorizationDefinition: ResourceDefinition = {
  schema: authorizationSchema,
  context: 'analytics',
  table: 'authorizations',
  rules: {
    beforeCreate: checkedGrant,
    beforeUpdate: (_current, changes) => ('permissions' in changes ? { ...changes, permissions: normalised(changes.permissions) } : changes),
  },
};
