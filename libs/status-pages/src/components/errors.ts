import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The refusals of status page components and component groups (docs/status-pages.md, "Components"). */
export enum ComponentsErrorCode {
  ComponentGroupInUse = 'COMPONENT_GROUP_IN_USE',
  // Attribute-level refusals (422 `Invalid attribute`: JsonApiError.invalidAttributes).
  UnknownStatus = 'UNKNOWN_STATUS',
  UnknownComponentGroup = 'UNKNOWN_COMPONENT_GROUP',
  UnknownCatalogRecord = 'UNKNOWN_CATALOG_RECORD',
}

export const COMPONENTS_ERRORS: ErrorTable<ComponentsErrorCode> = {
  [ComponentsErrorCode.ComponentGroupInUse]: { status: 422, title: 'Component group in use' },
  [ComponentsErrorCode.UnknownStatus]: INVALID_ATTRIBUTE,
  [ComponentsErrorCode.UnknownComponentGroup]: INVALID_ATTRIBUTE,
  [ComponentsErrorCode.UnknownCatalogRecord]: INVALID_ATTRIBUTE,
};
