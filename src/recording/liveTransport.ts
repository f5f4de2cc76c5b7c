import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';
import { isTransport, type Transport } from '../transport/transport.js';

/**
 * The live transport a recording or a passthrough run uses, as a setting gives it (`runTrajectory`'s
 * `transport`, the config's): a transport, used as it is by every run the setting applies to, or a
 * function that returns one, called for each such run.
 */
export type LiveTransport = Transport | (() => Transport);

const EXPECTED =
  'a transport (new AnthropicTransport()) or a function that returns one (() => new AnthropicTransport())';

/** What is wrong with a live transport setting, or undefined when it is a transport or a function. */
export function liveTransportProblem(value: unknown): string | undefined {
  if (typeof value === 'function') {
    // A class is a function too, but calling it without `new` throws: say so before a run does.
    const source = Function.prototype.toString.call(value);
    if (!/^class[\s{]/.test(source)) return undefined;
    const name = value.name === '' ? 'Transport' : value.name;
    return `must be ${EXPECTED}, but it was the class ${name} itself: pass new ${name}() or a function that makes one`;
  }
  if (isTransport(value)) return undefined;
  const what =
    typeof value === 'object' && value !== null
      ? `${describeValue(value)}, which has no send(request) method`
      : describeValue(value);
  return `must be ${EXPECTED}, but it was ${what}`;
}

/**
 * The setting as a function that gives the transport for one run: the transport itself, or what
 * the function returns, checked (a function that returns something else is refused when called).
 * Throws a {@link UsageError} (`invalid_transport`) naming `where` for a setting that is neither.
 */
export function liveTransportOf(value: LiveTransport, where: string): () => Transport {
  const problem = liveTransportProblem(value);
  if (problem !== undefined) throw new UsageError('invalid_transport', `${where} ${problem}.`);
  if (typeof value !== 'function') return () => value;
  return () => {
    const made: unknown = value();
    if (isTransport(made)) return made;
    const what = made instanceof Promise ? 'a promise' : describeValue(made);
    throw new UsageError(
      'invalid_transport',
      `${where} is a function that returned ${what}, not a transport: ` +
        'it must return one (not a promise of one), such as new AnthropicTransport().',
    );
  };
}
