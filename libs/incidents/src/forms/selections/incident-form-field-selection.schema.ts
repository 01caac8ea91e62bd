import type { AttributeDef } from '@taproot/json-api';
import { checkReferenced, type Row, type WriteContext } from '@taproot/resources';
import { FUNCTIONALITIES, SERVICES, TEAMS, USERS } from '../../incident-children/references';
import { CAUSES, checkedOnWrite, checkOptionsOf, checkSameResourceType, ENVIRONMENTS, FORM_FIELDS, INCIDENT_TYPES, strings } from '../form-rules';
import { incidentSelection } from './incident-selection';

const selected = (what: string, type: 'string' | 'integer' = 'string'): AttributeDef => ({ ...strings(`The selected ${what} for select and multi_select kinds`), items: { type } });

const RECORDS = {
  selected_cause_ids: CAUSES,
  selected_environment_ids: ENVIRONMENTS,
  selected_functionality_ids: FUNCTIONALITIES,
  selected_group_ids: TEAMS,
  selected_incident_type_ids: INCIDENT_TYPES,
  selected_service_ids: SERVICES,
  selected_user_ids: USERS,
};

/** The field is an incident field of the organization; selected options are its options. */
async function checkSelection(selection: Row, ctx: WriteContext): Promise<void> {
  await checkReferenced(ctx, { form_field_id: selection.form_field_id }, { form_field_id: FORM_FIELDS });
  await checkSameResourceType(ctx, selection.form_field_id, 'incident', 'form_field_id', 'an incident');
  await checkOptionsOf(ctx, selection.selected_option_ids, { table: 'form_field_options', fieldColumn: 'form_field_id', fieldId: selection.form_field_id });
}

const field = checkedOnWrite(checkSelection, ['selected_option_ids']);

/**
 * An incident's value of a form field (reference: `incident_form_field_selection`). The selected
 * records are the organization's (catalog entities, which no port checks, are stored as given).
 */
export const incidentFormFieldSelectionDefinition = incidentSelection(
  'form_field',
  {
    selected_catalog_entity_ids: selected('catalog entities'),
    selected_cause_ids: selected('causes'),
    selected_environment_ids: selected('environments'),
    selected_functionality_ids: selected('functionalities'),
    selected_group_ids: selected('groups (teams)'),
    selected_incident_type_ids: selected('incident types'),
    selected_option_ids: selected('options'),
    selected_service_ids: selected('services'),
    selected_user_ids: selected('users', 'integer'),
  },
  {
    beforeCreate: async (attributes, ctx) => field.beforeCreate(await checkReferenced(ctx, attributes, RECORDS), ctx),
    beforeUpdate: async (current, changes, ctx) => field.beforeUpdate(current, await checkReferenced(ctx, changes, RECORDS), ctx),
  },
);
