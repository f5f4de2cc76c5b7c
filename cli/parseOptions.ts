import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * node:util's parseArgs, strict, except that an option taking a value may be given one that starts
 * with a dash when it is a number or a lone dash (`--seed -3`, `--runs -5`): such a value is the
 * option's, so the command can say what is wrong with it, where parseArgs would call it ambiguous.
 */
export function parseOptions<const T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options = config.options ?? {};
  const args = [...(config.args ?? [])];
  for (let i = 0; i < args.length - 1; i++) {
    const name = /^--([^=]+)$/.exec(args[i]!)?.[1];
    if (name !== undefined && options[name]?.type === 'string' && /^-(\d|\.\d|$)/.test(args[i + 1]!)) {
      args.splice(i, 2, `--${name}=${args[i + 1]}`);
    }
  }
  return parseArgs({ ...config, args }) as ReturnType<typeof parseArgs<T>>;
}
