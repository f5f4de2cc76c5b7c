import { describe, expect, it } from 'vitest';
import { policies } from '../../src/index.js';
import { isAuthorized } from '../../src/guard/authorizer.js';

describe('isAuthorized: whether the principal may see a policy-gated tool', () => {
  it('grants only an authorizer that answers exactly true, and fails closed', () => {
    expect(isAuthorized(undefined, undefined)).toBe(true);
    expect(isAuthorized('p', undefined)).toBe(false);
    expect(isAuthorized('p', () => true)).toBe(true);
    expect(isAuthorized('p', () => false)).toBe(false);
    expect(isAuthorized('p', (() => 1) as never)).toBe(false);
    expect(isAuthorized('p', (() => 'yes') as never)).toBe(false);
    expect(
      isAuthorized('p', () => {
        throw new Error('directory down');
      }),
    ).toBe(false);
    expect(isAuthorized('p', policies('p', 'q'))).toBe(true);
    expect(isAuthorized('r', policies('p', 'q'))).toBe(false);
  });
});
