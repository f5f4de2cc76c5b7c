import { styleText } from 'node:util';

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
export type Paint = (style: Style, text: string) => string;

/** Colours only on a terminal, and never when NO_COLOR is set. */
export function createPaint(stream: { isTTY?: boolean }): Paint {
  const enabled = stream.isTTY === true && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
  return (style, text) => (enabled ? styleText(style, text) : text);
}

/** No colour: for tests and pipes. */
export const plain: Paint = (_style, text) => text;
