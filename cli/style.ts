import { styleText } from 'node:util';

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

/** Colours only on a terminal, and never when NO_COLOR is set. */
export function createStyle(stream: NodeJS.WritableStream & { isTTY?: boolean }): (style: Style, text: string) => string {
  const enabled = stream.isTTY === true && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
  return (style, text) => (enabled ? styleText(style, text) : text);
}
