import type { ParentDef } from '@taproot/json-api';

/** Records under a retrospective process, created and listed at `/v1/retrospective_processes/{retrospective_process_id}/<segment>`; deleted with it. */
export const underProcess = (segment: string): ParentDef => ({
  path: '/v1/retrospective_processes',
  param: 'retrospective_process_id',
  attribute: 'retrospective_process_id',
  table: 'retrospective_processes',
  segment,
  onParentDelete: 'cascade',
});
