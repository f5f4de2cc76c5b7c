import type { Operation } from './operations.js';

/**
 * An operation's tool name: its operationId in snake_case (`getPetById` → `get_pet_by_id`), else
 * its method and path (`GET /pets/{petId}` → `get_pets_pet_id`), after `prefix`; cut to the API's
 * 128 characters. Empty when nothing of it is a letter or digit.
 */
export function operationToolName(operation: Operation, prefix = ''): string {
  const base = operation.operationId ?? `${operation.method} ${operation.path}`;
  const name = prefix + snakeCase(base);
  return name.slice(0, 128);
}

function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}
