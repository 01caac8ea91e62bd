import { defineIncludes, byQuery, defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { authorizationDefinition } from '../authorizations/authorization.schema';
import { dashboardPanelDefinition, dashboardPanelSchema } from '../dashboard-panels/dashboard-panel.schema';
import { dataWindow } from '../dashboard-panels/panel-data';

export const DASHBOARD_COLORS = ['#FCF2CF', '#D7F5E1', '#E9E2FF', '#FAE6E8', '#FAEEE6'] as const;

/**
 * A dashboard (docs/dashboards.md): a named set of panels, owned by its creator (`owner: user`,
 * `user_id`) or by the organization (`owner: team`), with the default window its panels' data
 * covers (`range`, `period`). Updated with PUT or PATCH (spec). Deleting one deletes its panels and the authorizations on it.
 */
export const dashboardSchema = defineResource({
  type: 'dashboards',
  singular: 'dashboard',
  path: '/v1/dashboards',
  readTable: 'dashboards_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  updateMethod: 'both',
  relationships: { panels: { type: 'dashboard_panels', many: true } },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the dashboard' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the dashboard' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the dashboard' },
    // The reference names no default icon; a chart is what a dashboard is.
    icon: { type: 'string', default: '📊', maxLength: 32, description: 'The emoji icon of the dashboard' },
    color: { type: 'string', nullable: true, enum: DASHBOARD_COLORS, description: 'The hex color of the dashboard' },
    owner: { type: 'string', required: true, enum: ['user', 'team'], filter: true, description: 'The owner type of the dashboard' },
    user_id: { type: 'integer', nullable: true, writable: false, filter: true, description: 'The dashboard user owner if owner is of type user' },
    public: { type: 'boolean', default: false, filter: true, description: 'Whether the dashboard is public' },
    auto_refresh: { type: 'boolean', default: false, description: 'Whether the dashboard auto-updates the UI with new data.' },
    period: { type: 'string', nullable: true, enum: ['day', 'week', 'month'], description: 'The grouping period for dashboard panel data' },
    range: { type: 'string', nullable: true, description: "The date range for dashboard panel data: two ISO 8601 times separated by 'to'" },
  },
});

/** A stored range must be readable by the panels that fall back on it. */
function checkRange(range: unknown): void {
  if (typeof range !== 'string' || range === '') return;
  try {
    dataWindow({ range }, {}, new Date());
  } catch (error) {
    if (!(error instanceof JsonApiError)) throw error;
    throw JsonApiError.invalidAttributes([{ attribute: 'range', detail: error.errors[0]?.detail ?? 'range is malformed' }]);
  }
}

export const dashboardDefinition: ResourceDefinition = {
  schema: dashboardSchema,
  context: 'analytics',
  table: 'dashboards',
  // Its panels, and the grants on it (authorizations).
  children: () => [dashboardPanelDefinition, { definition: authorizationDefinition, attribute: 'authorizable_id' }],
  includes: defineIncludes(dashboardSchema, {
    panels: byQuery(
      dashboardPanelSchema,
      `SELECT p.dashboard_id AS owner_id, p.* FROM dashboard_panels_read p
        WHERE p.organization_id = $1 AND p.dashboard_id = ANY($2::uuid[]) ORDER BY p.created_at, p.id`,
    ),
  }),
  rules: {
    beforeCreate(attributes, ctx) {
      checkRange(attributes.range);
      // A user's dashboard is its creator's; a key without a user makes the organization's.
      const user = attributes.owner === 'user' && ctx.userId ? Number(ctx.userId) : null;
      return { ...attributes, user_id: user };
    },
    beforeUpdate(current, changes) {
      checkRange(changes.range);
      return changes;
    },
  },
};
