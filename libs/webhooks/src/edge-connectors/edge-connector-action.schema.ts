import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';

export const ACTION_ICONS = ['bolt', 'bolt-slash', 'cog', 'command-line', 'code-bracket', 'server', 'server-stack', 'play', 'arrow-path', 'wrench-screwdriver', 'cube', 'rocket-launch'] as const;

/**
 * An action of an edge connector (docs/edge-connectors.md): what the agent can run, with the
 * parameters it asks for. Nested under its connector for every route
 * (`/v1/edge_connectors/{edge_connector_id}/actions/{id}`, the reference's paths), written as a
 * JSON:API document or as the reference's `{"action": {name, action_type, metadata}}`.
 */
export const edgeConnectorActionSchema = defineResource({
  // The hosted API's type, hyphen included: its Terraform provider sends it and refuses any other in answers.
  type: 'edge_connector-actions',
  singular: 'edge_connector_action',
  plural: 'edge_connector_actions',
  path: '/v1/edge_connectors/{edge_connector_id}/actions',
  readTable: 'edge_connector_actions_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  updateMethod: 'patch',
  requestEnvelope: 'action',
  typeAliases: ['edge_connector_actions'],
  parent: { path: '/v1/edge_connectors', param: 'edge_connector_id', attribute: 'edge_connector_id', table: 'edge_connectors', segment: 'actions', onParentDelete: 'cascade' },
  attributes: {
    edge_connector_id: { type: 'string', format: 'uuid', writable: false, description: 'The ID of the edge connector' },
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'Action name' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'Action slug' },
    action_type: { type: 'string', required: true, enum: ['script', 'http'], filter: true, description: 'Action type' },
    description: { type: 'string', nullable: true, maxLength: 10000, description: 'Action description' },
    icon: { type: 'string', enum: ACTION_ICONS, default: 'bolt', description: 'Action icon' },
    timeout: { type: 'integer', nullable: true, minimum: 1, maximum: 3600, description: 'Timeout in seconds' },
    parameters: {
      type: 'array',
      default: [],
      description: 'What the action asks for when it runs',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Parameter name' },
          type: { type: 'string', enum: ['string', 'number', 'boolean'], description: 'Parameter type' },
          description: { type: 'string', description: 'Parameter description' },
          required: { type: 'boolean', description: 'Whether the parameter must be given' },
          default: { type: 'string', description: 'Default value' },
          options: { type: 'array', items: { type: 'string' }, description: 'The values the parameter takes' },
        },
      },
    },
    last_executed_at: { type: 'date-time', nullable: true, writable: false, description: 'When the action last ran' },
  },
  inputOnlyAttributes: {
    metadata: {
      type: 'object',
      description: "The reference's request form of description, parameters and timeout",
      properties: {
        description: { type: 'string', description: 'Action description' },
        parameters: { type: 'array', items: { type: 'object' }, description: 'What the action asks for' },
        timeout: { type: 'integer', minimum: 1, maximum: 3600, description: 'Timeout in seconds' },
      },
    },
  },
});

/** `metadata`'s members become the attributes they are (over what defaults filled in). */
function withMetadata(attributes: Row): Row {
  const { metadata, ...rest } = attributes as Row & { metadata?: Row };
  if (!metadata) return rest;
  const fromMetadata = Object.fromEntries(['description', 'parameters', 'timeout'].filter((name) => metadata[name] !== undefined).map((name) => [name, metadata[name]]));
  return { ...rest, ...fromMetadata };
}

export const edgeConnectorActionDefinition: ResourceDefinition = {
  schema: edgeConnectorActionSchema,
  context: 'webhooks',
  table: 'edge_connector_actions',
  permission: { family: 'webhooks' },
  rules: {
    beforeCreate: (attributes) => withMetadata(attributes),
    beforeUpdate: (_current, changes) => withMetadata(changes),
  },
};
