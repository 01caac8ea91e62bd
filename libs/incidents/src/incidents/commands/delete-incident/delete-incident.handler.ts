import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { ResourceWriteHandler, type Row } from '@taproot/resources';
import { deleteIncidentChildren } from '../../../incident-children/delete-children';
import { findIncident } from '../../incident-access';
import { linkAlerts } from '../../incident-alerts';
import { IncidentPlan, setDuplicate, setParent, settle } from '../../incident-changes';
import { announce, deleteTrailLine, writeTrail } from '../incident-write';
import { DeleteIncidentCommand } from './delete-incident.command';

@CommandHandler(DeleteIncidentCommand)
export class DeleteIncidentHandler extends ResourceWriteHandler {
  /**
   * Deletes the incident, the records under it and its timeline (each announced), and lets go of
   * the incidents that refer to it: its sub-incidents are detached and its duplicates unmarked,
   * each with its own update, timeline line and events.
   */
  execute(c: DeleteIncidentCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await findIncident(ctx.manager, 'incidents', c.access, c.id, true);
      const referring = (await ctx.manager.query(
        'SELECT * FROM incidents WHERE organization_id = $1 AND (parent_incident_id = $2 OR duplicate_incident_id = $2) ORDER BY sequential_id FOR UPDATE',
        [ctx.organizationId, current.id],
      )) as Row[];
      for (const row of referring) {
        const plan = new IncidentPlan(row, ctx, c.access);
        if (row.parent_incident_id === current.id) await setParent(plan, null);
        if (row.duplicate_incident_id === current.id) await setDuplicate(plan, null);
        settle(plan);
        await announce(ctx, await writer.update(ctx, plan.id, plan.changes), plan.events, keep);
        await writeTrail(ctx, plan, keep);
      }
      await linkAlerts(ctx, current, (current.alert_ids as string[] | null) ?? [], false, keep, c.access.userId);
      // Action items, sub-status assignments and the timeline's links: their keys refuse the deletes below.
      await deleteIncidentChildren(ctx, String(current.id), keep);
      const events = (await ctx.manager.query('SELECT id FROM incident_events WHERE incident_id = $1 ORDER BY occurred_at, created_at', [current.id])) as { id: string }[];
      for (const { id } of events) await deleteTrailLine(ctx, id, keep);
      return announce(ctx, await writer.delete(ctx, String(current.id)), [], keep);
    });
  }
}
