import { topicOf, type DomainEvent, type Projection } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import type { RotationConfig } from '../schedules/engine';

/** A version as stored: the engine's configuration and the rotation's place in its schedule. */
export interface StoredRotation extends RotationConfig {
  position: number;
}

/** The events that change what a rotation puts on call: itself, its members, its active days. */
const ROTATION_EVENTS = /^schedule_rotation(_user|_active_day)?\.(created|updated|deleted)$/;

/**
 * The on-call context's own read model of rotation history (inline: in the transaction of the
 * command that changed the rotation). After each change it stores the rotation's whole
 * configuration, effective from the change's instant; the first version is effective from the
 * beginning of time, so a rotation created with a past start_time covers it. A deleted rotation
 * gets a null configuration: no shifts after its deletion, the past ones kept.
 */
export class RotationHistoryProjection implements Projection {
  readonly name = 'schedule_rotation_versions.projection';
  readonly topics = [topicOf('on-call')];

  handles(eventType: string): boolean {
    return ROTATION_EVENTS.test(eventType);
  }

  apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    return this.applyBatch([event], manager);
  }

  async applyBatch(events: DomainEvent[], manager: EntityManager): Promise<void> {
    // One version per rotation a batch touched, at the batch's last change of it.
    const touched = new Map<string, { organizationId: string; at: string; scheduleId: string | null }>();
    for (const event of events) {
      const payload = event.payload as Record<string, unknown>;
      const rotationId = String(event.type.startsWith('schedule_rotation.') ? event.aggregate_id : payload.schedule_rotation_id);
      const scheduleId = typeof payload.schedule_id === 'string' ? payload.schedule_id : (touched.get(rotationId)?.scheduleId ?? null);
      touched.set(rotationId, { organizationId: event.organization_id, at: event.occurred_at, scheduleId });
    }
    for (const [rotationId, { organizationId, at, scheduleId }] of touched) {
      const [rotation] = (await manager.query('SELECT * FROM schedule_rotations WHERE organization_id = $1 AND id = $2', [organizationId, rotationId])) as Record<string, unknown>[];
      const schedule = (rotation?.schedule_id as string | undefined) ?? scheduleId ?? (await this.scheduleOf(manager, organizationId, rotationId));
      // A member or active day of a rotation deleted in the same command: the rotation's own event tells.
      if (!schedule) continue;
      const config = rotation ? await this.configOf(manager, organizationId, rotation) : null;
      const [{ first }] = (await manager.query('SELECT NOT EXISTS (SELECT 1 FROM schedule_rotation_versions WHERE organization_id = $1 AND rotation_id = $2) AS first', [
        organizationId,
        rotationId,
      ])) as { first: boolean }[];
      await manager.query(
        'INSERT INTO schedule_rotation_versions (organization_id, schedule_id, rotation_id, effective_from, config) VALUES ($1, $2, $3, $4, $5)',
        [organizationId, schedule, rotationId, first ? null : at, config === null ? null : JSON.stringify(config)],
      );
    }
  }

  private async scheduleOf(manager: EntityManager, organizationId: string, rotationId: string): Promise<string | null> {
    const [row] = (await manager.query('SELECT schedule_id FROM schedule_rotation_versions WHERE organization_id = $1 AND rotation_id = $2 LIMIT 1', [organizationId, rotationId])) as {
      schedule_id: string;
    }[];
    return row?.schedule_id ?? null;
  }

  private async configOf(manager: EntityManager, organizationId: string, rotation: Record<string, unknown>): Promise<StoredRotation> {
    const members = (await manager.query('SELECT user_id, position FROM schedule_rotation_users WHERE organization_id = $1 AND schedule_rotation_id = $2 ORDER BY position, created_at, id', [
      organizationId,
      rotation.id,
    ])) as { user_id: number; position: number }[];
    const days = (await manager.query('SELECT day_name, active_time_attributes FROM schedule_rotation_active_days WHERE organization_id = $1 AND schedule_rotation_id = $2 ORDER BY created_at, id', [
      organizationId,
      rotation.id,
    ])) as RotationConfig['active_day_times'] & object;
    const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));
    return {
      position: Number(rotation.position),
      time_zone: rotation.time_zone as string,
      schedule_rotationable_type: rotation.schedule_rotationable_type as RotationConfig['schedule_rotationable_type'],
      schedule_rotationable_attributes: rotation.schedule_rotationable_attributes as RotationConfig['schedule_rotationable_attributes'],
      start_time: iso(rotation.start_time),
      end_time: iso(rotation.end_time),
      active_all_week: rotation.active_all_week as boolean,
      active_days: rotation.active_days as RotationConfig['active_days'],
      active_time_type: rotation.active_time_type as RotationConfig['active_time_type'],
      active_time_attributes: (rotation.active_time_attributes as RotationConfig['active_time_attributes']) ?? [],
      active_day_times: days,
      members: members.map((m) => ({ user_id: Number(m.user_id), position: Number(m.position) })),
    };
  }
}
