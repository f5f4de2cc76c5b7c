// A module resolution hook that makes @readme/openapi-parser absent, as in a project that did not install it.
export async function resolve(specifier, context, next) {
  if (specifier === '@readme/openapi-parser' || specifier.startsWith('@readme/openapi-parser/')) {
    const error = new Error(`Cannot find package '@readme/openapi-parser' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
