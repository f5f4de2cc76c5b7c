/** A tool contract, enforced before the tool runs. Rules name tools by their wire names. */
export type Rule =
  | { kind: 'require'; tool: string; prerequisite: string }
  | { kind: 'terminal'; tool: string }
  | { kind: 'limit'; tool: string; maxCalls: number };

/** Builders for an agent's `rules`. */
export const rules = {
  /** `tool` runs only after a successful call of `prerequisite` in an earlier turn. */
  require(tool: string, prerequisite: string): Rule {
    return { kind: 'require', tool, prerequisite };
  },
  /** Once `tool` succeeds, no further tool call runs in this run; the model can still answer. */
  terminal(tool: string): Rule {
    return { kind: 'terminal', tool };
  },
  /** At most `maxCalls` attempts of `tool` per run. */
  limit(tool: string, maxCalls: number): Rule {
    return { kind: 'limit', tool, maxCalls };
  },
};

/** The tools a rule names, for the construction-time check. */
export function toolsNamedBy(rule: Rule): string[] {
  return rule.kind === 'require' ? [rule.tool, rule.prerequisite] : [rule.tool];
}
