/**
 * Generic ObjectMeta validation, as apimachinery applies it to every object: the name
 * rule of the resource (DNS-1123 subdomain, label or path segment), label keys and values,
 * annotation keys, finalizer names and owner references (apiVersion with a version, kind,
 * name and uid set, no Event as owner, at most one controller). Messages are the real ones, regex included, because
 * they are what a person sees from `kubectl apply`.
 */
import { fieldError, type FieldError } from './field-errors.js';
import { isObject, stringOr, type JsonObject } from './json.js';

/** How a resource's object names are validated. */
export type NameRule = 'subdomain' | 'label' | 'path-segment';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must " +
  "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex " +
  "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** Problems with a name under a rule, as message fragments (empty when valid). */
export function nameProblems(name: string, rule: NameRule): string[] {
  if (rule === 'path-segment') {
    if (name === '.' || name === '..') return [`may not be '${name}'`];
    return /[/%]/.test(name) ? [`may not contain '${name.includes('/') ? '/' : '%'}'`] : [];
  }
  const max = rule === 'label' ? 63 : 253;
  const problems: string[] = [];
  if (name.length > max) problems.push(`must be no more than ${max} characters`);
  if (!(rule === 'label' ? LABEL : SUBDOMAIN).test(name)) problems.push(rule === 'label' ? LABEL_MSG : SUBDOMAIN_MSG);
  return problems;
}

/** Problems with a qualified name (`prefix/name`): label keys, annotation keys, finalizers. */
export function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with " +
      "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. " +
      "'example.com/MyName')"];
  }
  const [prefix, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
  const problems: string[] = [];
  if (parts.length === 2) {
    if (prefix.length === 0) problems.push('prefix part must be non-empty');
    else problems.push(...nameProblems(prefix, 'subdomain').map((p) => `prefix part ${p}`));
  }
  if (name.length === 0) problems.push('name part must be non-empty');
  else if (name.length > 63) problems.push('name part must be no more than 63 characters');
  else if (!QUALIFIED_NAME_PART.test(name)) problems.push(NAME_PART_MSG);
  return problems;
}

/** ValidateOwnerReferences: each reference complete, no Event as owner, one controller at most. */
function ownerReferenceErrors(refs: unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const path = 'metadata.ownerReferences';
  let firstController = '';
  for (const raw of refs) {
    const ref = isObject(raw) ? raw : {};
    const apiVersion = stringOr(ref.apiVersion, '');
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) errors.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!stringOr(ref.kind, '')) {
      errors.push(fieldError.invalid(`${path}.kind`, stringOr(ref.kind, ''), 'must not be empty'));
    }
    if (!stringOr(ref.name, '')) {
      errors.push(fieldError.invalid(`${path}.name`, stringOr(ref.name, ''), 'must not be empty'));
    }
    if (!stringOr(ref.uid, '')) {
      errors.push(fieldError.invalid(`${path}.uid`, stringOr(ref.uid, ''), 'must not be empty'));
    }
    if (apiVersion === 'v1' && ref.kind === 'Event') {
      errors.push(fieldError.invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${stringOr(ref.kind, '')}/${stringOr(ref.name, '')}`;
      if (firstController) {
        errors.push(fieldError.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" ` +
          `in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errors;
}

/** Validate the parts of metadata every resource shares. */
export function validateObjectMeta(meta: JsonObject, rule: NameRule): FieldError[] {
  const errors: FieldError[] = [];
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (!name) errors.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else for (const problem of nameProblems(name, rule)) errors.push(fieldError.invalid('metadata.name', name, problem));
  if (isObject(meta.labels)) {
    for (const [key, value] of Object.entries(meta.labels)) {
      for (const problem of qualifiedNameProblems(key)) {
        errors.push(fieldError.invalid('metadata.labels', key, problem));
      }
      const text = String(value);
      if (text.length > 63) errors.push(fieldError.invalid('metadata.labels', text,
        'must be no more than 63 characters'));
      else if (!LABEL_VALUE.test(text)) errors.push(fieldError.invalid('metadata.labels', text, LABEL_VALUE_MSG));
    }
  }
  if (isObject(meta.annotations)) {
    let size = 0;
    for (const [key, value] of Object.entries(meta.annotations)) {
      for (const problem of qualifiedNameProblems(key)) {
        errors.push(fieldError.invalid('metadata.annotations', key, problem));
      }
      size += key.length + String(value).length;
    }
    if (size > 256 * 1024) errors.push(fieldError.tooLong('metadata.annotations', 256 * 1024));
  }
  if (Array.isArray(meta.ownerReferences)) errors.push(...ownerReferenceErrors(meta.ownerReferences));
  if (Array.isArray(meta.finalizers)) {
    meta.finalizers.forEach((finalizer, i) => {
      for (const problem of qualifiedNameProblems(String(finalizer))) {
        errors.push(fieldError.invalid(`metadata.finalizers[${i}]`, finalizer, problem));
      }
    });
  }
  return errors;
}
