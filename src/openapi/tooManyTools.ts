import { byTag, type SummaryRow } from './operationRows.js';
import { OpenApiError } from './OpenApiError.js';

/** Tags named in the refusal; the rest are counted. */
const TAGS_SHOWN = 20;

/**
 * The refusal of a selection that gives more tools than `maxTools`: how many the selection gives (the
 * document's when nothing was selected), by tag, and how to select. The counts are on the error too
 * (`tooManyTools`), for a caller that says them in its own terms.
 */
export function tooManyTools(rows: readonly SummaryRow[], maxTools: number, selection: boolean): OpenApiError {
  const built = rows.filter((row) => row.tool !== undefined);
  const tags = built.some((row) => row.tags.length > 0)
    ? byTag(built).map(([tag, group]) => `${tag} (${group.length.toLocaleString('en-US')})`)
    : [];
  const shown =
    tags.slice(0, TAGS_SHOWN).join(', ') + (tags.length > TAGS_SHOWN ? `, and ${tags.length - TAGS_SHOWN} more` : '');
  const tools = built.length.toLocaleString('en-US');
  return new OpenApiError(
    'openapi_too_many_tools',
    `${selection ? 'The operations selected give' : 'The document gives'} ${tools} tools, more than maxTools ` +
      `(${maxTools}): a prompt with that many tool schemas costs more and chooses worse. ` +
      `${tags.length > 0 ? `By tag: ${shown}. ` : ''}Select ${selection ? 'fewer' : 'some'} with 'tags' or ` +
      "'operationIds', or raise 'maxTools'.",
    { tooManyTools: { tools: built.length, maxTools } },
  );
}
