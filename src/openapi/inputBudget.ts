import { OpenApiError } from './OpenApiError.js';

/**
 * What building the inputs of all the selected operations may cost together, in JSON values: each
 * value an input's schema is copied to (a copy abandoned at an operation's own bound included) and
 * each value of the schema as published. An operation's own bound keeps one input small; this keeps a
 * document of many operations, each costly, from costing their number times as much. Past `max`, the
 * document is refused (`openapi_too_large`).
 */
export class InputBudget {
  #spent = 0;

  constructor(readonly max: number) {}

  /** Counts `values` more. */
  spend(values: number): void {
    this.#spent += values;
    if (this.#spent > this.max)
      throw new OpenApiError(
        'openapi_too_large',
        `The OpenAPI document is too large to read: the inputs of the operations selected, each shared type ` +
          `copied where it is used and each schema counted as the model would be shown it, come to more than ` +
          `${this.max.toLocaleString('en-US')} values together, the most openApiTools reads ('maxDocumentNodes'). ` +
          "Select only the operations you need ('operationIds' or 'tags'), or raise 'maxDocumentNodes' if you " +
          'trust the document.',
      );
  }
}
