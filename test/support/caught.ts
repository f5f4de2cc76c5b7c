/** Runs an action that must throw an error of the given class, and returns that error. */
export function caught<E extends Error>(action: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    action();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}

/** The message of an assertion that must fail (a matcher's, an assertThat check's). */
export function failureMessage(assertion: () => void): string {
  return caught(assertion, Error).message;
}
