import { Controller, Get, Param } from '@nestjs/common';
import { Public } from '@taproot/auth';
import { CONTEXTS } from '@taproot/contexts';
import { buildOpenApiDocument, JsonApiError, listOperations, operationDocument, type OpenApiDocument } from '@taproot/json-api';

/** Every declared resource of the API, in the order the document lists them. */
export const API_RESOURCES = CONTEXTS.flatMap((context) => context.resources);

let cached: OpenApiDocument | undefined;
/** Built once per process: the declarations do not change at run time. */
export function apiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument(
    API_RESOURCES,
    { title: 'Taproot API', version: '1.0.0' },
    {
      schemas: Object.assign({}, ...CONTEXTS.map((context) => context.openapi?.schemas ?? {})),
      paths: Object.assign({}, ...CONTEXTS.map((context) => context.openapi?.paths ?? {})),
    },
  );
  return cached;
}

/**
 * The OpenAPI 3 document generated from the same declarations that serve the API, whole and split
 * by operation (spec, Versioning): an index, and each operation as a standalone document.
 */
@Public()
@Controller('v1')
export class OpenApiController {
  @Get('openapi.json')
  document() {
    return apiDocument();
  }

  @Get('openapi/operations.json')
  operations() {
    return {
      operations: listOperations(apiDocument()).map((o) => ({ ...o, href: `/v1/openapi/operations/${o.operation_id}.json` })),
    };
  }

  @Get('openapi/operations/:file')
  operation(@Param('file') file: string) {
    const operationId = /^(\w+)\.json$/.exec(file)?.[1];
    const document = operationId ? operationDocument(apiDocument(), operationId) : null;
    if (!document) throw JsonApiError.of(404, 'Not found', `No operation ${file.replace(/\.json$/, '')} in the OpenAPI document (see /v1/openapi/operations.json)`, 'NOT_FOUND');
    return document;
  }
}
