import { CORE_SCHEMA, EVENT_ID, constructFromEvents, parseEvents, type Event } from 'js-yaml';

/**
 * The fast path for reading a trajectory: js-yaml's event parser, about four times faster
 * than the `yaml` library, which stays the writer and the reader of record for anything
 * unusual. Returns undefined whenever the text needs that careful path: a syntax error,
 * more than one document, an anchor, an alias or an explicit tag (which are refused there,
 * with their line and column). Both read the YAML 1.2 core schema; a property test holds
 * them to the same values on everything the writer produces.
 */
export function readPlainYaml(text: string): { value: unknown } | undefined {
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined;
  }
  let documents = 0;
  for (const event of events) {
    if (event.type === EVENT_ID.DOCUMENT) documents++;
    else if (event.type === EVENT_ID.ALIAS) return undefined;
    else if ('anchorStart' in event && (event.anchorStart >= 0 || event.tagStart >= 0)) return undefined;
  }
  if (documents !== 1) return undefined;
  try {
    const [value] = constructFromEvents(events, { source: text, schema: CORE_SCHEMA });
    return { value };
  } catch {
    return undefined;
  }
}
