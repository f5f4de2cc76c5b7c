import * as z from 'zod';
import { defineTool } from '../../src/index.js';

/** Adds two whole numbers. Declared with plain JSON Schema. */
export const add = defineTool({
  name: 'add',
  description: 'Adds two whole numbers and returns the sum. Use it for every addition; do not add in your head.',
  input: {
    type: 'object',
    properties: {
      left: { type: 'integer', description: 'The first addend.' },
      right: { type: 'integer', description: 'The second addend.' },
    },
    required: ['left', 'right'],
  },
  annotations: { title: 'Add', readOnly: true, openWorld: false },
  run: ({ left, right }) => String(left + right),
});

/** Divides with a rule zod checks after the structure: no division by zero. */
export const divide = defineTool({
  name: 'divide',
  description: 'Divides one number by another and returns the quotient.',
  input: z.object({
    dividend: z.number().describe('The number to divide.'),
    divisor: z
      .number()
      .refine((n) => n !== 0, 'the divisor cannot be 0')
      .describe('The number to divide by.'),
  }),
  annotations: { title: 'Divide', readOnly: true, openWorld: false },
  run: ({ dividend, divisor }) => ({ quotient: dividend / divisor }),
});

/** Fails for negative numbers: a tool whose code throws, for the model to be told only its class. */
export const squareRoot = defineTool({
  name: 'square_root',
  description: 'Returns the square root of a number.',
  input: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
  annotations: { title: 'Square root', readOnly: true, openWorld: false },
  run: ({ value }) => {
    if (value < 0) throw new RangeError(`cannot take the square root of ${value}`);
    return String(Math.sqrt(value));
  },
});
