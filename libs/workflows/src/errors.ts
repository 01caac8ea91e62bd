import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The workflows context's refusals: attribute-level only (422, one error per attribute). */
export enum WorkflowsErrorCode {
  UnknownReference = 'UNKNOWN_REFERENCE',
  InvalidValue = 'INVALID_VALUE',
  ResourceTypeMismatch = 'RESOURCE_TYPE_MISMATCH',
}

export const WORKFLOWS_ERRORS: ErrorTable<WorkflowsErrorCode> = {
  [WorkflowsErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [WorkflowsErrorCode.InvalidValue]: INVALID_ATTRIBUTE,
  [WorkflowsErrorCode.ResourceTypeMismatch]: INVALID_ATTRIBUTE,
};
