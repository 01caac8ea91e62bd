import { fieldOptions } from '../field-options';

/** An option of a deprecated custom field; `custom_field_id` is a uuid like every Taproot id (the reference's integer cannot name these records). */
export const customFieldOptionDefinition = fieldOptions('custom_field', 'The ID of the parent custom field');
