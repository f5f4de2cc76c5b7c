/** A schema document after preparation: plain JSON Schema 2020-12, exactly what the model is shown. */
export type PublishedSchema = Record<string, unknown>;
