import { unique as named } from '../test/support/json-api';
import { describeReferenceConformance, INT4_BOUNDED, made, NAMED } from './support/reference-conformance';

/** The reference conformance of SLAs (docs/slas.md). */

const USER = 'must name a user of the organization';

describeReferenceConformance({
  type: 'slas',
  path: '/v1/slas',
  singular: 'sla',
  // The manager, the deadlines' sub-statuses and the custom condition's form field are records of the organization.
  references: async (api, org) => {
    const role = await made(api, org, '/v1/incident_roles', 'incident_roles', { name: named('Commander'), summary: 'Leads' });
    const started = await made(api, org, '/v1/sub_statuses', 'sub_statuses', { name: named('Investigating'), parent_status: 'started' });
    const retrospective = await made(api, org, '/v1/sub_statuses', 'sub_statuses', { name: named('Reviewing'), parent_status: 'retrospective' });
    const field = await made(api, org, '/v1/form_fields', 'form_fields', { name: named('Customer tier'), kind: 'custom' });
    return {
      manager_role_id: role,
      assignment_deadline_sub_status_id: started,
      completion_deadline_sub_status_id: retrospective,
      form_field_id: field,
      sub_status_value: started,
    };
  },
  pick: (name, _schema, variant, references) => {
    // Exactly one manager: the role.
    if (name === 'manager_user_id') return null;
    // A sub-status refines its phase: started, or resolved for a retrospective one.
    if (name === 'assignment_deadline_parent_status') return 'started';
    if (name === 'completion_deadline_parent_status') return 'resolved';
    // A built-in condition names its property, a custom one its form field (the generated sample has both).
    if (name === 'conditions') {
      return [
        { conditionable_type: 'SLAs::BuiltInFieldCondition', property: variant === 'create' ? 'status' : 'sub_status', operator: 'is', values: variant === 'create' ? ['started'] : [references.sub_status_value], position: 1, form_field_id: null },
        { conditionable_type: 'SLAs::CustomFieldCondition', form_field_id: references.form_field_id, operator: 'is', values: ['enterprise'], position: 2, property: null },
      ];
    }
    // when_due is the deadline itself: 0 days.
    if (name === 'notification_configurations') return [{ offset_type: 'before_due', offset_days: 2 }, { offset_type: 'when_due', offset_days: 0 }];
    return undefined;
  },
  // Without a manager (every nullable null, or only the required attributes) the calling user manages the SLA; nulls on update keep the manager.
  assignedWhenNull: ['position', 'manager_role_id', 'manager_user_id'],
  // Each condition and configuration is answered with its id (and a configuration with its timestamps).
  addedMembers: { conditions: ['id'], notification_configurations: ['id', 'created_at', 'updated_at'] },
  knownStricter: {
    ...NAMED,
    'position=-1': 'minimum 0',
    'manager_user_id=-1': USER,
    [`manager_user_id=${2 ** 31}`]: USER,
    [`manager_user_id=${Number.MAX_SAFE_INTEGER}`]: USER,
    'conditions=[{...,extra_member}]': 'only a custom field condition names a form field, and it must be one of the organization (the sample names a random one on a built-in condition)',
  },
  mayRefuse: INT4_BOUNDED,
});
