import { objectJsonText } from '../json/jsonText.js';
import { canonicalJson } from '../json/canonicalJson.js';
import type { Suspension } from '../runtime/agentResult.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { BUILT_IN_SECRET_PATTERNS, findSecret } from '../trajectory/secretScan.js';
import type { ClaimRecord } from '../runtime/approval/claimRecord.js';
import { StoreError } from './stateStore.js';

/** What every store does to a record before it writes it. */
export interface StoreOptions {
  /** Redactions applied to everything the store writes (as for recordings). */
  redactions?: readonly Redaction[];
  /** Secrets beyond the built-in patterns: a record that still holds one is refused. */
  secrets?: readonly (RegExp | string)[];
}

/**
 * Turns records into the text a store writes: redacted, then scanned, so a credential a tool
 * returned or threw never reaches the store. A record that still holds a secret is refused, with
 * a message that does not quote it.
 */
export class RecordWriter {
  readonly #redact: <T>(value: T) => T;
  readonly #secrets: readonly (RegExp | string)[];

  constructor(options: StoreOptions = {}) {
    this.#redact = createRedactor(options.redactions ?? []);
    this.#secrets = options.secrets ?? [];
  }

  suspension(suspension: Suspension): Suspension {
    const redacted = this.#redact(suspension);
    if (suspension.signature !== undefined && canonicalJson(redacted) !== canonicalJson(suspension)) {
      throw new StoreError(
        'redaction_breaks_signature',
        `Suspension ${suspension.id} of run ${suspension.runId} is signed, and the store's redactions would ` +
          `change it, so it could never be resumed; it was not stored. Keep the secret out of the run's tool ` +
          'results, or narrow the redaction.',
      );
    }
    this.#scan(objectJsonText(redacted), `Suspension ${suspension.id} of run ${suspension.runId}`);
    return redacted;
  }

  claim(record: ClaimRecord): ClaimRecord {
    const redacted = this.#redact(record);
    this.#scan(objectJsonText(redacted), `The claim on suspension ${record.suspensionId} of run ${record.runId}`);
    return redacted;
  }

  #scan(text: string, what: string): void {
    const finding = findSecret(text, this.#secrets);
    if (finding === undefined) return;
    // A declared secret's pattern is the secret itself: name only the built-in patterns.
    const builtIn = BUILT_IN_SECRET_PATTERNS.find((pattern) => pattern.source === finding.pattern);
    const which = builtIn === undefined ? 'one of the declared secrets' : `the built-in pattern /${builtIn.source}/`;
    throw new StoreError(
      'secret_in_record',
      `${what} holds a secret (${which}, at character ${finding.column} of its JSON), so it was not stored. ` +
        `Declare a redaction for it in the store's options ({ redactions: [{ pattern }] } or a key path), or ` +
        'keep it out of tool results.',
    );
  }
}
