import { GROUP_SCHEMA, listResponse, MAX_RESULTS, USER_SCHEMA } from './scim-resources';

/**
 * RFC 7644 §4 discovery: what this service provider supports (clients read it before syncing)
 * and the schemas of the attributes it keeps (RFC 7643 §7: only those).
 */
export function serviceProviderConfig(base: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: 'The organization\'s SCIM token, issued by "taproot scim token --org <id>"', primary: true },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const SCHEMAS = [
  {
    id: USER_SCHEMA,
    name: 'User',
    description: 'A person of the organization (Taproot user); userName is their e-mail',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('name', 'complex', { subAttributes: [attribute('givenName', 'string'), attribute('familyName', 'string'), attribute('formatted', 'string', { mutability: 'readOnly' })] }),
      attribute('displayName', 'string', { mutability: 'readOnly' }),
      attribute('emails', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')] }),
      attribute('active', 'boolean'),
      attribute('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attribute('value', 'string'), attribute('display', 'string'), attribute('$ref', 'reference')] }),
    ],
  },
  {
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A team of the organization (Taproot team)',
    attributes: [
      attribute('displayName', 'string', { required: true }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('members', 'complex', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', { mutability: 'immutable' }),
          attribute('display', 'string', { mutability: 'readOnly' }),
          // RFC 7643 §8.7.1: members carry the referenced resource's type; a client validating answers against this schema refuses an undeclared one.
          attribute('type', 'string', { mutability: 'immutable', canonicalValues: ['User', 'Group'] }),
          attribute('$ref', 'reference', { mutability: 'immutable' }),
        ],
      }),
    ],
  },
];

const RESOURCE_TYPES = [
  { id: 'User', name: 'User', endpoint: '/Users', description: 'Taproot users', schema: USER_SCHEMA },
  { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Taproot teams', schema: GROUP_SCHEMA },
];

export const listOf = (resources: Record<string, unknown>[]) => listResponse(resources.length, 1, resources);

export const schemas = (base: string) => SCHEMAS.map((s) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'], ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } }));
export const resourceTypes = (base: string) =>
  RESOURCE_TYPES.map((t) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'], ...t, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` } }));
