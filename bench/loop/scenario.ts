import * as z from 'zod';

/**
 * The run-loop bench's scenario, declared once for all three frameworks: a support agent looks up
 * customers and orders over three tools. Nine model turns each say a sentence and call one tool; the
 * tenth answers. Every framework gets the same zod schemas (each validates the model's input with
 * them on every call), the same tool bodies and the same scripted model turns.
 */
export const TURNS = 10;
export const MODEL = 'claude-haiku-5-5';
export const SYSTEM = 'You answer questions about customers and their orders. Look facts up; never guess.';
export const INPUT = 'Which open orders do ada@example.com and grace@example.com have, and what is in them?';
export const FINAL_TEXT =
  'Ada Lovelace has two open orders (ord_101: 2 × notebook, ord_102: 1 × pen); Grace Hopper has two ' +
  '(ord_201: 1 × compiler manual, ord_202: 3 × cable), and one shipped order of Ada is on its way.';
/** What each scripted turn reports as its token usage (the same in every framework). */
export const TURN_USAGE = { input: 420, output: 36 };

export const findCustomerInput = z.object({ email: z.string().min(3).max(254) });
export const listOrdersInput = z.object({
  customerId: z.string().regex(/^cus_\d+$/),
  status: z.enum(['open', 'shipped', 'all']),
  limit: z.number().int().min(1).max(50),
});
export const getOrderInput = z.object({ orderId: z.string().regex(/^ord_\d+$/) });

type Customer = { id: string; name: string; tier: 'standard' | 'gold' };
type Order = { id: string; status: 'open' | 'shipped'; items: { sku: string; name: string; quantity: number }[] };

const customers: Record<string, Customer> = {
  'ada@example.com': { id: 'cus_1', name: 'Ada Lovelace', tier: 'gold' },
  'grace@example.com': { id: 'cus_2', name: 'Grace Hopper', tier: 'standard' },
};
const orders: Record<string, Order[]> = {
  cus_1: [
    { id: 'ord_101', status: 'open', items: [{ sku: 'nb-a5', name: 'notebook', quantity: 2 }] },
    { id: 'ord_102', status: 'open', items: [{ sku: 'pen-bl', name: 'pen', quantity: 1 }] },
    { id: 'ord_103', status: 'shipped', items: [{ sku: 'ink-bk', name: 'ink', quantity: 4 }] },
  ],
  cus_2: [
    { id: 'ord_201', status: 'open', items: [{ sku: 'bk-cc', name: 'compiler manual', quantity: 1 }] },
    { id: 'ord_202', status: 'open', items: [{ sku: 'cb-usb', name: 'cable', quantity: 3 }] },
  ],
};

/** How many times a tool body ran, in any framework: a refused input must not reach a body. */
export const bodyRuns = { count: 0 };

/** The tool bodies, shared by the three frameworks: plain lookups, so the loop's own cost dominates. */
export const toolBodies = {
  find_customer: ({ email }: z.infer<typeof findCustomerInput>) => {
    bodyRuns.count++;
    // Own keys only: an email such as `constructor` names no customer (not Object.prototype's).
    return (Object.hasOwn(customers, email) ? customers[email] : undefined) ?? { error: 'no such customer' };
  },
  list_orders: ({ customerId, status, limit }: z.infer<typeof listOrdersInput>) => {
    bodyRuns.count++;
    return {
      orders: ((Object.hasOwn(orders, customerId) ? orders[customerId] : undefined) ?? [])
        .filter((order) => status === 'all' || order.status === status)
        .slice(0, limit)
        .map(({ id, status }) => ({ id, status })),
    };
  },
  get_order: ({ orderId }: z.infer<typeof getOrderInput>) => {
    bodyRuns.count++;
    return (
      Object.values(orders)
        .flat()
        .find((order) => order.id === orderId) ?? { error: 'no such order' }
    );
  },
};

export const toolDeclarations = [
  { name: 'find_customer', description: 'Finds a customer by email address.', input: findCustomerInput },
  { name: 'list_orders', description: "Lists a customer's orders, newest first.", input: listOrdersInput },
  { name: 'get_order', description: 'Reads one order with its items.', input: getOrderInput },
] as const;

export type ToolName = keyof typeof toolBodies;

/** One model turn of the script: a sentence and one tool call (with the id every framework uses). */
export interface ScriptedTurn {
  text: string;
  call: { id: string; name: ToolName; input: Record<string, unknown> };
}

const call = (n: number, name: ToolName, input: Record<string, unknown>, text: string): ScriptedTurn => ({
  text,
  call: { id: `toolu_bench_${n}`, name, input },
});

/** The nine tool turns, in order; the tenth turn is {@link FINAL_TEXT}. */
export const SCRIPT: readonly ScriptedTurn[] = [
  call(1, 'find_customer', { email: 'ada@example.com' }, 'I will look Ada up first.'),
  call(2, 'list_orders', { customerId: 'cus_1', status: 'open', limit: 5 }, "Now Ada's open orders."),
  call(3, 'get_order', { orderId: 'ord_101' }, 'Reading order ord_101.'),
  call(4, 'get_order', { orderId: 'ord_102' }, 'Reading order ord_102.'),
  call(5, 'find_customer', { email: 'grace@example.com' }, 'Next, Grace.'),
  call(6, 'list_orders', { customerId: 'cus_2', status: 'all', limit: 10 }, "Grace's orders."),
  call(7, 'get_order', { orderId: 'ord_201' }, 'Reading order ord_201.'),
  call(8, 'get_order', { orderId: 'ord_202' }, 'Reading order ord_202.'),
  call(9, 'list_orders', { customerId: 'cus_1', status: 'shipped', limit: 3 }, 'And whether Ada has a shipped order.'),
];

/** A tool call as each framework reports it after a run: name, the input it ran with, what it returned. */
export interface CallMade {
  name: string;
  input: unknown;
  output: unknown;
}

/** What one run of the loop produced, read from each framework's own result. */
export interface LoopRun {
  calls: CallMade[];
  text: string;
  turns: number;
}

/** The calls a correct run of a script makes: its calls, answered by the tool bodies. */
export function expectedCallsOf(script: readonly ScriptedTurn[]): CallMade[] {
  return script.map(({ call: { name, input } }) => ({
    name,
    input,
    output: (toolBodies[name] as (args: unknown) => unknown)(input),
  }));
}

export const EXPECTED_CALLS: CallMade[] = expectedCallsOf(SCRIPT);
