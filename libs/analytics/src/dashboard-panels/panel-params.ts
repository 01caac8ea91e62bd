import type { AttributeDef } from '@taproot/json-api';
import { RULE_CONDITIONS } from '@taproot/json-api';

export const PANEL_DISPLAYS = ['line_chart', 'line_stepped_chart', 'column_chart', 'stacked_column_chart', 'monitoring_chart', 'pie_chart', 'table', 'aggregate_value'] as const;
export const PANEL_COLLECTIONS = ['alerts', 'incidents', 'incident_post_mortems', 'incident_action_items', 'users'] as const;
export type PanelCollection = (typeof PANEL_COLLECTIONS)[number];

const AND_OR = ['and', 'or'] as const;

/**
 * A panel's `params` as the reference declares them: what it displays and its datasets, each a
 * collection counted per period, filtered by rule groups, split by `group_by` (an attribute name,
 * or the reference's `{key, value}` object, checked by the panel's rules) and aggregated.
 */
export const PANEL_PARAMS: AttributeDef = {
  type: 'object',
  required: true,
  description: 'What the panel shows: its display and datasets',
  properties: {
    display: { type: 'string', enum: PANEL_DISPLAYS, description: 'How the panel draws its data' },
    description: { type: 'string', description: 'The description of the panel' },
    table_fields: { type: 'array', items: { type: 'string' }, description: 'Fields a table display shows' },
    legend: { type: 'object', properties: { groups: { type: 'string', enum: ['all', 'charted'], description: 'Which groups the legend lists' } } },
    datalabels: { type: 'object', properties: { enabled: { type: 'boolean', description: 'Whether values are labelled' } } },
    datasets: {
      type: 'array',
      description: 'The series the panel draws',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', nullable: true, description: 'The name of the dataset' },
          collection: { type: 'string', enum: PANEL_COLLECTIONS, description: 'The records counted' },
          filter: {
            type: 'array',
            description: 'Rule groups that all hold; the rules of a group are joined by its operation',
            items: {
              type: 'object',
              properties: {
                operation: { type: 'string', enum: AND_OR, description: 'How the group joins its rules' },
                rules: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      operation: { type: 'string', enum: AND_OR, description: 'Kept as sent' },
                      condition: { type: 'string', enum: RULE_CONDITIONS, description: 'How the attribute is compared' },
                      key: { type: 'string', description: 'An attribute of the collection' },
                      value: { type: 'string', description: 'The value compared with' },
                    },
                  },
                },
              },
            },
          },
          aggregate: {
            type: 'object',
            nullable: true,
            properties: {
              operation: { type: 'string', enum: ['count', 'sum', 'average'], description: 'What a period holds' },
              key: { type: 'string', nullable: true, description: 'The numeric attribute summed or averaged' },
              cumulative: { type: 'boolean', nullable: true, description: 'Each period adds the ones before it' },
            },
          },
        },
      },
    },
  },
};
