/**
 * Field-level validation errors in the form kube-apiserver reports them
 * (k8s.io/apimachinery/pkg/util/validation/field): each error has a type that becomes the
 * Status cause `reason`, a field path (`spec.chartRef.kind`, `spec.tools[0].type`) and a
 * message body (`Required value`, `Unsupported value: "Foo": supported values: "A", "B"`).
 */

/** The cause reasons of field errors (metav1.CauseType values). */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueNotFound';

/** One field error. `detail` completes the message; `supported` lists enum values. */
export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly value?: unknown;
  readonly detail?: string;
  readonly supported?: readonly unknown[];
  /** The value as Go's `%#v` prints it, when that is not what formatValue gives (`0x0`). */
  readonly shown?: string;
}

/** How Go's validation prints a value: strings quoted (%q), everything else as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return '"null"';
  return JSON.stringify(value);
}

/** The message body of a field error, without the field path. */
export function fieldErrorBody(error: FieldError): string {
  const suffix = error.detail ? `: ${error.detail}` : '';
  switch (error.type) {
    case 'FieldValueRequired':
      return `Required value${suffix}`;
    case 'FieldValueNotSupported': {
      const supported = error.supported?.length
        ? `: supported values: ${error.supported.map(formatValue).join(', ')}`
        : '';
      return `Unsupported value: ${formatValue(error.value)}${supported}`;
    }
    case 'FieldValueTooLong':
      return `Too long${suffix}`;
    case 'FieldValueTooMany':
      return `Too many${suffix}`;
    case 'FieldValueDuplicate':
      return `Duplicate value: ${formatValue(error.value)}`;
    case 'FieldValueForbidden':
      return `Forbidden${suffix}`;
    case 'FieldValueNotFound':
      return `Not found: ${formatValue(error.value)}`;
    default:
      return `Invalid value: ${error.shown ?? formatValue(error.value)}${suffix}`;
  }
}

/** `field: body`, the form errors take inside an Invalid message. */
export function fieldErrorString(error: FieldError): string {
  return error.field ? `${error.field}: ${fieldErrorBody(error)}` : fieldErrorBody(error);
}

/** Go's aggregate of errors: the one error, or `[a, b, c]`. */
export function aggregate(errors: readonly FieldError[]): string {
  const texts = errors.map(fieldErrorString);
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

/** Shorthands for the common error types. */
export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError =>
    ({ type: 'FieldValueInvalid', field, value, detail }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError =>
    ({ type: 'FieldValueTypeInvalid', field, value, detail }),
  notSupported: (field: string, value: unknown, supported: readonly unknown[]): FieldError =>
    ({ type: 'FieldValueNotSupported', field, value, supported }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value }),
  tooLong: (field: string, max: number): FieldError =>
    ({ type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes` }),
  tooMany: (field: string, actual: number, max: number): FieldError =>
    ({ type: 'FieldValueTooMany', field, detail: `${actual}: must have at most ${max} items` }),
};
