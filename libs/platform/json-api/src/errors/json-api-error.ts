import { INVALID_ATTRIBUTE } from './domain-error';

/** One item of the errors-list document (spec, "Errors"): `status` is a string. */
export interface ErrorObject {
  title: string;
  status: string;
  code: string | null;
  detail: string | null;
  /** `header`: the request header the error is about. */
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

/**
 * A failure that maps straight to an errors-list response. Domain errors of the contexts are
 * translated to this by the one global exception filter.
 */
export class JsonApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorObject[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.detail ?? e.title).join('; '));
    this.name = 'JsonApiError';
  }

  static of(status: number, title: string, detail: string | null, code: string | null = null, source?: ErrorObject['source']): JsonApiError {
    return new JsonApiError(status, [{ title, status: String(status), code, detail, ...(source ? { source } : {}) }]);
  }

  /** 400: a malformed query parameter; `parameter` names it (JSON:API `source.parameter`). */
  static badParameter(parameter: string, detail: string): JsonApiError {
    return JsonApiError.of(400, 'Invalid query parameter', detail, 'INVALID_QUERY_PARAMETER', { parameter });
  }

  static badRequest(detail: string, code = 'BAD_REQUEST'): JsonApiError {
    return JsonApiError.of(400, 'Bad request', detail, code);
  }

  static notFound(type: string, id: string): JsonApiError {
    return JsonApiError.of(404, 'Not found', `No ${type} with id ${id}`, 'NOT_FOUND');
  }

  /** 422 with one error per invalid attribute; `pointer` is `/data/attributes/<name>`. */
  static invalidAttributes(items: { attribute: string; detail: string; code?: string }[]): JsonApiError {
    return new JsonApiError(
      INVALID_ATTRIBUTE.status,
      items.map((i) => ({
        title: INVALID_ATTRIBUTE.title,
        status: String(INVALID_ATTRIBUTE.status),
        code: i.code ?? 'INVALID_ATTRIBUTE',
        detail: i.detail,
        source: { pointer: `/data/attributes/${i.attribute}` },
      })),
    );
  }
}
