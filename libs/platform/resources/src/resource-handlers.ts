import { BulkDeleteResourcesHandler, BulkUpsertResourcesHandler } from './resource-bulk';
import { CreateResourceHandler, DeleteResourceHandler, GetResourceHandler, ListResourcesHandler, UpdateResourceHandler } from './resource-commands';

/** Every handler of the generic resource path: the app lists them as providers. */
export const RESOURCE_HANDLERS = [
  CreateResourceHandler,
  UpdateResourceHandler,
  DeleteResourceHandler,
  BulkUpsertResourcesHandler,
  BulkDeleteResourcesHandler,
  ListResourcesHandler,
  GetResourceHandler,
];
