const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids are uuids; a path `{id}` that is not one may be a slug (reference path params). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const INTEGER_ID = /^[0-9]{1,9}$/;

/** Users' ids are integers; longer ones would overflow the column. */
export function isIntegerId(value: string): boolean {
  return INTEGER_ID.test(value);
}
