// `POST /api/validate`: a value checked against a JSON Schema by @mcpc/schema-validator (compiled schemas cached).
import { compile, type Validator } from '@mcpc/schema-validator';
import type { Validation } from '../contract/api.js';
import { ApiError, errorJson, isRecord, need } from './http.js';

/** Compiled schemas kept, by their JSON text. */
const CACHED = 200;
const validators = new Map<string, Validator>();

export function validate(body: unknown): Validation {
  need(isRecord(body) && 'schema' in body, '"schema" and "value" are required');
  const key = JSON.stringify(body.schema);
  let validator = validators.get(key);
  if (validator === undefined) {
    try {
      validator = compile(body.schema as Parameters<typeof compile>[0]);
    } catch (error) {
      const { code, message } = errorJson(error);
      throw new ApiError(400, code, message);
    }
    if (validators.size >= CACHED) validators.delete(validators.keys().next().value!);
    validators.set(key, validator);
  }
  const { valid, errors } = validator.validate(body.value);
  return {
    valid,
    issues: errors.map((e) => ({
      instancePath: e.instancePath,
      message: e.message,
      keyword: e.keyword,
      schemaPath: e.schemaPath,
    })),
  };
}
