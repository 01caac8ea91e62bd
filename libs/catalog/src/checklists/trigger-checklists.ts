import { randomUUID } from 'node:crypto';
import { existingUserIds } from '@taproot/identity';
import type { Row, WriteContext } from '@taproot/resources';
import { CHECKLIST_KINDS } from './catalog-checklist-kinds';
import type { ChecklistCatalogType } from './catalog-checklist-template.schema';
import type { TemplateField, TemplateOwner } from './catalog-checklist-template-definition';

/** The user ids an attribute value names (a list or one id); anything else names none. */
const idsIn = (value: unknown): string[] => (Array.isArray(value) ? value : value == null ? [] : [value]).filter((v) => typeof v === 'string' || typeof v === 'number').map(String);

/**
 * The checklists a trigger of `template` makes (the writer's create input, id included): one per
 * record the template covers that has no open one (triggered or in progress) of this template, so
 * a second trigger adds the records that came since and leaves the open ones as they are. Each
 * lists the template's fields unchecked and its owners: its user owners, and the users the
 * record's field-owner attributes name (`owner_user_ids`), those still users of the organization.
 */
export async function checklistsOf(template: Row, ctx: WriteContext): Promise<Row[]> {
  const kind = CHECKLIST_KINDS[template.catalog_type as ChecklistCatalogType];
  const scope = { type: template.scope_type as 'Team' | 'Catalog', id: (template.scope_id as string | null) ?? null };
  const open = new Set(
    ((await ctx.manager.query("SELECT auditable_id FROM catalog_entity_checklists WHERE organization_id = $1 AND catalog_checklist_template_id = $2 AND status IN ('triggered', 'in_progress')", [
      ctx.organizationId,
      template.id,
    ])) as { auditable_id: string }[]).map((r) => r.auditable_id),
  );
  const ids = (await kind.ids(ctx.manager, ctx.organizationId, scope)).filter((id) => !open.has(id));
  if (ids.length === 0) return [];
  const owners = (template.owners as TemplateOwner[] | null) ?? [];
  const fieldOwners = owners.filter((o) => o.type === 'field').map((o) => o.id);
  const records = fieldOwners.length ? await kind.records(ctx.manager, ctx.organizationId, ids) : new Map();
  const named = new Map(ids.map((id) => [id, [...owners.filter((o) => o.type === 'user').map((o) => o.id), ...fieldOwners.flatMap((key) => idsIn(records.get(id)?.attributes[key]))]]));
  const users = await existingUserIds(ctx.manager, ctx.organizationId, [...new Set([...named.values()].flat())]);
  const now = ctx.now.toISOString();
  return ids.map((auditableId) => {
    const id = randomUUID();
    const member = (type: string, attributes: Row) => ({ data: { id: randomUUID(), type, attributes: { catalog_entity_checklist_id: id, ...attributes, created_at: now, updated_at: now } } });
    return {
      id,
      catalog_checklist_template_id: template.id,
      auditable_type: kind.auditable,
      auditable_id: auditableId,
      status: 'triggered',
      started_at: null,
      completed_at: null,
      completed_by_user_id: null,
      checklist_fields: ((template.fields as TemplateField[] | null) ?? []).map((f) =>
        member('catalog_entity_checklist_fields', { catalog_checklist_template_field_id: null, field_key: f.field_key, checked: false, value_snapshot: null, completed_by_user_id: null, completed_at: null }),
      ),
      checklist_owners: [...new Set(named.get(auditableId))].filter((u) => users.has(u)).map((u) => member('catalog_entity_checklist_owners', { owner_user_id: u })),
    };
  });
}
