import { existingCatalogIds } from '@taproot/catalog';
import { ianaZoneOf, TIME_ZONE_NAMES } from '@taproot/config';
import { hashPassword } from '@taproot/identity';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { statusPageAnnouncementDefinition } from '../announcements/status-page-announcement.schema';
import { statusPageComponentGroupDefinition } from '../components/status-page-component-group.schema';
import { statusPageComponentDefinition } from '../components/status-page-component.schema';
import { statusPageGroupDefinition } from '../teams/status-page-group.schema';
import { statusPageTemplateDefinition } from '../templates/status-page-template.schema';
import { StatusPagesErrorCode } from './status-page-errors';

const SECTIONS = ['maintenance', 'system_status', 'incidents'] as const;
const SAML_NAME_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
] as const;
const EQUALITY = ['eq', 'not_eq', 'in', 'not_in'] as const;

const text = (description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...extra });
const flag = (description: string, value: boolean): AttributeDef => ({ type: 'boolean', nullable: true, alwaysStored: true, default: value, description });
const ids = (description: string): AttributeDef => ({ type: 'array', nullable: true, alwaysStored: true, default: [], items: { type: 'string', format: 'uuid' }, description });

/**
 * A status page (reference `status_page`; docs/status-pages.md): what it shows and to whom. Its
 * records (components, templates, team grants, ...) live under it at `/v1/status-pages/{status_page_id}/...`.
 */
export const statusPageSchema = defineResource({
  type: 'status_pages',
  singular: 'status_page',
  path: '/v1/status-pages',
  readTable: 'status_pages_read',
  // An incident's status page events name a page and keep it (its children go with it).
  deleteRefusedWhileNamedBy: ['incident_status_page_events'],
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's filter[name] is the title (a status page has no name).
  listFilters: { name: { type: 'string', column: 'title', filter: EQUALITY, description: 'The title of the status page' } },
  extraFilters: { name: { description: 'The title of the status page; takes [eq], [not_eq], [in], [not_in]' } },
  attributes: {
    title: { type: 'string', required: true, minLength: 1, maxLength: 255, sortable: true, searchable: true, description: 'The title of the status page' },
    slug: { type: 'string', writable: false, derivedFrom: 'title', filter: EQUALITY, description: 'The slug of the status page, derived from its title' },
    description: text('The description of the status page', { searchable: true }),
    public_title: text('The public title of the status page'),
    public_description: text('The public description of the status page'),
    header_color: text('The color of the header. Eg. "#0061F2"', { alwaysStored: true, default: '#0061F2' }),
    footer_color: text('The color of the footer. Eg. "#1F2F41"', { alwaysStored: true, default: '#1F2F41' }),
    allow_search_engine_index: flag('Allow search engines to include your public status page in search results', true),
    authentication_enabled: flag('Enable authentication (deprecated - use authentication_method instead); follows authentication_method when that is written', false),
    authentication_method: { type: 'string', enum: ['none', 'password', 'saml'], nullable: true, alwaysStored: true, default: 'none', description: 'Authentication method; password needs authentication_password' },
    authentication_password: text('Authentication password; write-only (answers show ******** once set)', { sensitive: 'write-only' }),
    saml_idp_cert: text('SAML IdP certificate'),
    saml_idp_cert_fingerprint: text('SAML IdP certificate fingerprint (not computed by Taproot: null)', { writable: false }),
    saml_idp_sso_service_url: text('SAML IdP SSO service URL'),
    saml_idp_slo_service_url: text('SAML IdP SLO service URL'),
    saml_name_identifier_format: text('SAML name identifier format', { enum: SAML_NAME_FORMATS }),
    success_message: text('Message showing when all components are operational'),
    failure_message: text('Message showing when at least one component is not operational'),
    website_url: text('Website URL'),
    website_privacy_url: text('Website Privacy URL'),
    website_support_url: text('Website Support URL'),
    ga_tracking_id: text('Google Analytics tracking ID'),
    time_zone: text('A valid IANA time zone name (a Rails name is taken too, answered as sent).', { alwaysStored: true, default: 'Etc/UTC' }),
    public: flag('Make the status page accessible to the public', false),
    enabled: flag('Enabled / Disable the status page', true),
    show_uptime: flag('Show uptime', true),
    show_uptime_last_days: { type: 'integer', enum: [30, 60, 90], nullable: true, alwaysStored: true, default: 90, description: 'Show uptime over x days' },
    section_order: {
      type: 'array',
      items: { type: 'string', enum: SECTIONS },
      nullable: true,
      alwaysStored: true,
      default: [...SECTIONS],
      description: 'Order of sections on the status page; each section at most once',
    },
    service_ids: ids('Services attached to the status page'),
    functionality_ids: ids('Functionalities attached to the status page'),
    external_domain_names: { type: 'array', items: { type: 'string' }, nullable: true, alwaysStored: true, default: [], description: 'External domain names attached to the status page (host names, stored lower-cased)' },
    cname_records: { type: 'object', nullable: true, writable: false, description: 'CNAME records mapping external domain names to their DNS target values (not provisioned by Taproot: null)' },
  },
});

const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
// A DNS host name: dot-separated labels of letters, digits and inner hyphens, at least two labels.
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

type Problem = { attribute: string; detail: string; code: StatusPagesErrorCode };

/** Null for a list or a setting means its default (the reference declares them nullable on input). */
function withDefaultsForNull(changes: Row): Row {
  const attributes = { ...changes };
  for (const [name, def] of Object.entries(statusPageSchema.attributes as Record<string, AttributeDef>)) {
    if (attributes[name] === null && def.alwaysStored && def.default !== undefined) attributes[name] = structuredClone(def.default);
  }
  return attributes;
}

function shapeProblems(attributes: Row): Problem[] {
  const problems: Problem[] = [];
  if (typeof attributes.time_zone === 'string' && ianaZoneOf(attributes.time_zone) === null) {
    problems.push({ attribute: 'time_zone', detail: `time_zone must be ${TIME_ZONE_NAMES} (got ${JSON.stringify(attributes.time_zone)})`, code: StatusPagesErrorCode.InvalidTimeZone });
  }
  for (const name of ['header_color', 'footer_color']) {
    const value = attributes[name];
    if (typeof value === 'string' && !COLOR.test(value)) problems.push({ attribute: name, detail: `${name} must be a hex color such as #0061F2 (got ${JSON.stringify(value)})`, code: StatusPagesErrorCode.InvalidColor });
  }
  const sections = attributes.section_order;
  if (Array.isArray(sections)) {
    sections.forEach((section, i) => {
      if (sections.indexOf(section) !== i) problems.push({ attribute: `section_order/${i}`, detail: `section_order[${i}]: ${String(section)} is already listed`, code: StatusPagesErrorCode.DuplicateSection });
    });
  }
  const domains = attributes.external_domain_names;
  if (Array.isArray(domains)) {
    domains.forEach((domain, i) => {
      if (!HOST.test(String(domain).toLowerCase())) {
        problems.push({ attribute: `external_domain_names/${i}`, detail: `external_domain_names[${i}] must be a host name such as status.example.com (got ${JSON.stringify(domain)})`, code: StatusPagesErrorCode.InvalidDomainName });
      }
    });
  }
  return problems;
}

/** The rules the declaration cannot say, on the page as it will be (`settled`) and the attributes written. */
async function checked(ctx: WriteContext, written: Row, settled: Row): Promise<Row> {
  const problems = shapeProblems(written);
  if (settled.authentication_method === 'password' && (settled.authentication_password == null || settled.authentication_password === '')) {
    problems.push({ attribute: 'authentication_password', detail: 'authentication_password is required when authentication_method is password', code: StatusPagesErrorCode.PasswordRequired });
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  const attributes = await checkReferenced(ctx, written, {
    service_ids: { noun: 'service', code: StatusPagesErrorCode.UnknownReference, existing: (db, org, list) => existingCatalogIds(db, org, 'services', list) },
    functionality_ids: { noun: 'functionality', code: StatusPagesErrorCode.UnknownReference, existing: (db, org, list) => existingCatalogIds(db, org, 'functionalities', list) },
  });
  if (Array.isArray(attributes.external_domain_names)) attributes.external_domain_names = [...new Set((attributes.external_domain_names as string[]).map((d) => d.toLowerCase()))];
  // The deprecated flag says whether any authentication applies.
  if (typeof attributes.authentication_method === 'string') attributes.authentication_enabled = attributes.authentication_method !== 'none';
  // Stored as a scrypt hash, like people's passwords: the public page compares in constant time (public-page.password.ts).
  if (typeof attributes.authentication_password === 'string' && attributes.authentication_password !== '') {
    attributes.authentication_password = await hashPassword(attributes.authentication_password);
  }
  return attributes;
}

export const statusPageDefinition: ResourceDefinition = {
  schema: statusPageSchema,
  context: 'status-pages',
  table: 'status_pages',
  // Deleting a page deletes what lives under it first, each with its event: components before
  // their groups (a group in use refuses). Status page events belong to incidents and only name
  // a page: a page they name answers 409 STILL_REFERENCED (docs/status-pages.md).
  children: () => [statusPageTemplateDefinition, statusPageGroupDefinition, statusPageComponentDefinition, statusPageComponentGroupDefinition, statusPageAnnouncementDefinition],
  rules: {
    beforeCreate(input, ctx) {
      const attributes = withDefaultsForNull(input);
      return checked(ctx, attributes, attributes);
    },
    beforeUpdate(current, changes, ctx) {
      const attributes = withDefaultsForNull(changes);
      return checked(ctx, attributes, { ...current, ...attributes });
    },
  },
};
