import { styleText } from 'node:util';

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
export type Paint = (style: Style, text: string) => string;

/** Colours only on a terminal, and never when NO_COLOR is set to a non-empty value (no-color.org). */
export function createPaint(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Paint {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const enabled = stream.isTTY === true && !noColor && env.TERM !== 'dumb';
  // The decision is made here, for the stream this paint is for; styleText must not redo it for stdout.
  return (style, text) => (enabled ? styleText(style, text, { validateStream: false }) : text);
}
