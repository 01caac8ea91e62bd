import { ResourceWriter, type Keep, type Row, type Snapshot, type WriteContext } from '@taproot/resources';
import { incidentRetrospectiveStepDefinition } from './incident-retrospective-step.schema';

const DAY_MS = 86_400_000;

const steps = new ResourceWriter(incidentRetrospectiveStepDefinition);

const lowered = (ids: unknown): string[] => (Array.isArray(ids) ? ids.map((id) => String(id).toLowerCase()) : []);

/**
 * Gives a new incident its own copy of the steps of the retrospective process matching it
 * (docs/retrospectives.md, "Incident retrospective steps"), in its create's transaction, each with
 * its `incident_retrospective_step.created`: the oldest process whose matching criteria name the
 * incident's severity, one of its teams or one of its incident types; else the oldest process
 * without criteria (one for every incident); else none, and nothing is copied.
 */
export async function copyRetrospectiveSteps(ctx: WriteContext, incident: Snapshot, keep: Keep): Promise<void> {
  // One statement on every incident's create: the steps of the matching process, if any.
  const sources = (await ctx.manager.query(
    `SELECT id, title, description, due_after_days, position, skippable FROM retrospective_steps
      WHERE organization_id = $1 AND retrospective_process_id = (
        SELECT id FROM retrospective_processes
         WHERE organization_id = $1
           AND (retrospective_process_matching_criteria IS NULL
             OR retrospective_process_matching_criteria->'severity_ids' ? $2
             OR retrospective_process_matching_criteria->'group_ids' ?| $3::text[]
             OR retrospective_process_matching_criteria->'incident_type_ids' ?| $4::text[])
         ORDER BY retrospective_process_matching_criteria IS NULL, created_at, id
         LIMIT 1)
      ORDER BY position, created_at, id`,
    [ctx.organizationId, incident.severity_id == null ? null : String(incident.severity_id).toLowerCase(), lowered(incident.group_ids), lowered(incident.incident_type_ids)],
  )) as Row[];
  for (const { id, due_after_days: days, ...copied } of sources) {
    const dueDate = days == null ? null : new Date(ctx.now.getTime() + Number(days) * DAY_MS);
    keep(await steps.create(ctx, { ...copied, retrospective_step_id: id, due_date: dueDate, status: 'todo' }, incident.id));
  }
}
