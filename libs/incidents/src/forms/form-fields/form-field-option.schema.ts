import { fieldOptions } from '../field-options';

/** An option of a select form field (spec, Form field option). */
export const formFieldOptionDefinition = fieldOptions('form_field', 'The owning form field');
