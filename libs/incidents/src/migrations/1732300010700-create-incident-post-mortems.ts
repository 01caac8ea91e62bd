import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The view's columns, in their order (1732300010900 appends to them and restores them on down). */
export const POST_MORTEMS_VIEW_COLUMNS = `
      SELECT i.id, i.organization_id, i.private,
             COALESCE(p.title, i.title) AS title,
             COALESCE(p.status, 'draft') AS status,
             p.content,
             COALESCE(p.show_timeline, true) AS show_timeline,
             COALESCE(p.show_timeline_trail, false) AS show_timeline_trail,
             COALESCE(p.show_timeline_genius, false) AS show_timeline_genius,
             COALESCE(p.show_timeline_tasks, false) AS show_timeline_tasks,
             COALESCE(p.show_timeline_action_items, false) AS show_timeline_action_items,
             COALESCE(p.show_timeline_order, 'desc') AS show_timeline_order,
             COALESCE(p.show_services_impacted, true) AS show_services_impacted,
             COALESCE(p.show_functionalities_impacted, true) AS show_functionalities_impacted,
             COALESCE(p.show_groups_impacted, true) AS show_groups_impacted,
             COALESCE(p.show_alerts_attached, true) AS show_alerts_attached,
             COALESCE(p.show_action_items, true) AS show_action_items,
             p.cause_ids,
             COALESCE(i.url || '/retrospective', '/v1/post_mortems/' || i.id::text) AS url,
             i.started_at, i.mitigated_at, i.resolved_at,
             i.status AS incident_status, i.severity_id, i.service_ids,
             i.created_at,
             GREATEST(i.updated_at, p.updated_at) AS updated_at`;

export const POST_MORTEMS_VIEW_FROM = `
        FROM incidents_read i
        LEFT JOIN incident_post_mortems p ON p.id = i.id AND p.organization_id = i.organization_id`;

/**
 * Incidents' post mortems (docs/retrospectives.md, "Incident post mortems"): every incident has
 * exactly one, with the incident's id as its id. `incident_post_mortems` holds only what a PUT
 * wrote (no row until the first one); reads go to the view `incident_post_mortems_read` over
 * `incidents_read`, which answers the incident's title until one is written and always the
 * incident's timestamps. The write row goes with its incident (ON DELETE CASCADE).
 */
export class CreateIncidentPostMortems1732300010700 implements MigrationInterface {
  name = 'CreateIncidentPostMortems1732300010700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE incident_post_mortems (
        id uuid PRIMARY KEY REFERENCES incidents(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text,
        status text NOT NULL DEFAULT 'draft',
        content text,
        show_timeline boolean NOT NULL DEFAULT true,
        show_timeline_trail boolean NOT NULL DEFAULT false,
        show_timeline_genius boolean NOT NULL DEFAULT false,
        show_timeline_tasks boolean NOT NULL DEFAULT false,
        show_timeline_action_items boolean NOT NULL DEFAULT false,
        show_timeline_order text NOT NULL DEFAULT 'desc',
        show_services_impacted boolean NOT NULL DEFAULT true,
        show_functionalities_impacted boolean NOT NULL DEFAULT true,
        show_groups_impacted boolean NOT NULL DEFAULT true,
        show_alerts_attached boolean NOT NULL DEFAULT true,
        show_action_items boolean NOT NULL DEFAULT true,
        cause_ids text[],
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX incident_post_mortems_organization ON incident_post_mortems (organization_id)');
    // A post mortem nobody wrote answers the write table's defaults: keep the COALESCEs and the DEFAULTs equal.
    await q.query(`CREATE VIEW incident_post_mortems_read AS${POST_MORTEMS_VIEW_COLUMNS}${POST_MORTEMS_VIEW_FROM}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW incident_post_mortems_read');
    await q.query('DROP TABLE incident_post_mortems');
  }
}
