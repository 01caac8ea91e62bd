import { createRecordsUnderParent as createRecords } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const INCIDENT = { column: 'incident_id', table: 'incidents' };

const EVENT_LINKS = { incident_event_services: 'service_id', incident_event_functionalities: 'functionality_id' };
const LINK_STATUS = "status text NOT NULL CHECK (status IN ('operational', 'partial_outage', 'major_outage'))";

/**
 * What lives under an incident: action items, sub-status assignments, and the services and
 * functionalities its timeline events affected (docs/incident-children.md). Write tables and
 * `_read` models, indexed for their lists (every sort ends in created_at, id).
 *
 * Each record's parent is of the same organization: the foreign keys are (organization_id,
 * parent id), so no write can put a record under another tenant's incident or event. They are NO
 * ACTION, not CASCADE: deleting an incident deletes these records itself, each with its
 * `*.deleted` event, which a cascade would skip. The sub-status, service, functionality and
 * users an item names are checked when written and not keyed (deleting a sub-status or a service
 * that history mentions stays possible, as for an incident's `service_ids`).
 */
export class CreateActionItemsAndIncidentSubStatuses1732300001300 implements MigrationInterface {
  name = 'CreateActionItemsAndIncidentSubStatuses1732300001300';

  async up(q: QueryRunner): Promise<void> {
    // The targets of the composite keys below.
    await q.query('ALTER TABLE incidents ADD CONSTRAINT incidents_organization_id_id UNIQUE (organization_id, id)');
    await q.query('ALTER TABLE incident_events ADD CONSTRAINT incident_events_organization_id_id UNIQUE (organization_id, id)');

    await createRecords(
      q,
      'incident_action_items',
      INCIDENT,
      `summary text NOT NULL,
      description text,
      kind text NOT NULL DEFAULT 'task' CHECK (kind IN ('task', 'follow_up')),
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('high', 'medium', 'low')),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'cancelled', 'done')),
      due_date timestamptz,
      assigned_to_user_id integer,
      assigned_to jsonb,
      assigned_to_group_ids text[],
      created_by jsonb,
      jira_issue_id text,
      jira_issue_key text,
      jira_issue_url text,
      form_field_selections jsonb`,
      {
        created: 'created_at, id',
        updated: 'updated_at, created_at, id',
        due_date: 'due_date, created_at, id',
        status: 'status, created_at, id',
        incident: 'incident_id, created_at, id',
        assignee: 'assigned_to_user_id, created_at, id',
      },
    );
    await createRecords(q, 'incident_sub_statuses', INCIDENT, 'sub_status_id uuid NOT NULL, assigned_at timestamptz NOT NULL, assigned_by_user_id integer', {
      assigned: 'incident_id, assigned_at, created_at, id',
      created: 'incident_id, created_at, id',
      updated: 'incident_id, updated_at, created_at, id',
    });
    for (const [table, linked] of Object.entries(EVENT_LINKS)) {
      await createRecords(q, table, { column: 'incident_event_id', table: 'incident_events' }, `${linked} uuid NOT NULL, ${LINK_STATUS}`, {
        created: 'incident_event_id, created_at, id',
        updated: 'incident_event_id, updated_at, created_at, id',
      });
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['incident_action_items', 'incident_sub_statuses', ...Object.keys(EVENT_LINKS)]) await q.query(`DROP TABLE ${table}_read, ${table}`);
    await q.query('ALTER TABLE incident_events DROP CONSTRAINT incident_events_organization_id_id');
    await q.query('ALTER TABLE incidents DROP CONSTRAINT incidents_organization_id_id');
  }
}
