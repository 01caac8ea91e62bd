import { checkReferenced, type Row, type WriteContext } from '@taproot/resources';
import { checkedOnWrite, checkOptionsOf, CUSTOM_FIELDS, strings } from '../form-rules';
import { incidentSelection } from './incident-selection';

async function checkSelection(selection: Row, ctx: WriteContext): Promise<void> {
  await checkReferenced(ctx, { custom_field_id: selection.custom_field_id }, { custom_field_id: CUSTOM_FIELDS });
  await checkOptionsOf(ctx, selection.selected_option_ids, { table: 'custom_field_options', fieldColumn: 'custom_field_id', fieldId: selection.custom_field_id });
}

/**
 * An incident's value of a deprecated custom field (reference: `incident_custom_field_selection`);
 * its ids are uuids, as every Taproot id (docs/forms.md).
 */
export const incidentCustomFieldSelectionDefinition = incidentSelection(
  'custom_field',
  { selected_option_ids: strings('The selected options of the custom field for select and multi_select kinds') },
  checkedOnWrite(checkSelection, ['selected_option_ids']),
);
