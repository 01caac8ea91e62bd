import { buildOpenApiDocument } from '@taproot/json-api';
import { customFieldOptionDefinition } from './custom-fields/custom-field-option.schema';
import { customFieldDefinition } from './custom-fields/custom-field.schema';
import { customFormDefinition } from './custom-forms/custom-form.schema';
import { formFieldPlacementConditionDefinition } from './form-field-placements/form-field-placement-condition.schema';
import { formFieldPlacementDefinition } from './form-field-placements/form-field-placement.schema';
import { formFieldOptionDefinition } from './form-fields/form-field-option.schema';
import { formFieldPositionDefinition } from './form-fields/form-field-position.schema';
import { formFieldDefinition } from './form-fields/form-field.schema';
import { formSetConditionDefinition } from './form-sets/form-set-condition.schema';
import { formSetDefinition } from './form-sets/form-set.schema';
import { incidentCustomFieldSelectionDefinition } from './selections/incident-custom-field-selection.schema';
import { incidentFormFieldSelectionDefinition } from './selections/incident-form-field-selection.schema';

/** The incident selections, deleted with their incident (incident-children/delete-children.ts). */
export const FORM_SELECTIONS = [incidentFormFieldSelectionDefinition, incidentCustomFieldSelectionDefinition];

/** The forms family (docs/forms.md), registered with the incidents context's resources. */
export const FORMS_RESOURCES = [
  formFieldDefinition,
  formFieldOptionDefinition,
  formSetDefinition,
  formFieldPlacementDefinition,
  formFieldPlacementConditionDefinition,
  formFieldPositionDefinition,
  formSetConditionDefinition,
  customFormDefinition,
  customFieldDefinition,
  customFieldOptionDefinition,
  ...FORM_SELECTIONS,
];

/** The reference's deprecated resources (spec: custom fields in favor of form fields). */
const DEPRECATED = [customFieldDefinition, customFieldOptionDefinition, incidentCustomFieldSelectionDefinition];

/**
 * Their paths as the api generates them, each operation marked `deprecated`, for the context's
 * OpenAPI contribution (which replaces the generated operations of those paths).
 */
function deprecatedPaths(): Record<string, unknown> {
  const { paths } = buildOpenApiDocument(
    DEPRECATED.map((d) => d.schema),
    { title: 'deprecated custom fields', version: '1' },
  );
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([key, op]) => [key, key === 'parameters' ? op : { ...(op as object), deprecated: true }])),
    ]),
  );
}

export const FORMS_OPENAPI = { paths: deprecatedPaths() };
