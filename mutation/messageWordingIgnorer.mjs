// A Stryker ignore-plugin for message wording, and nothing else: the text of an error a legate
// class throws (the last argument of `new XxxError(...)`) and the `message` of a guard block.
// These are sentences a person or the model reads; mutating a word in them changes no
// behaviour. Everything else in those statements (error codes, rule names, the tool named
// in a block, the `source` of a taint) is still mutated and must be pinned by tests.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const WORDING = 'message wording: the text of an error or of a refusal the model reads';

function isMessageProperty(path) {
  const parent = path.parentPath;
  if (parent === null || !parent.isObjectProperty() || path.key !== 'value') return false;
  const key = parent.node.key;
  return (
    !parent.node.computed &&
    ((key.type === 'Identifier' && key.name === 'message') || (key.type === 'StringLiteral' && key.value === 'message'))
  );
}

function isErrorMessageArgument(path) {
  const parent = path.parentPath;
  if (parent === null || !parent.isNewExpression() || path.listKey !== 'arguments') return false;
  const callee = parent.node.callee;
  return callee.type === 'Identifier' && /Error$/.test(callee.name) && path.key === parent.node.arguments.length - 1;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'message-wording', {
    shouldIgnore(path) {
      return isMessageProperty(path) || isErrorMessageArgument(path) ? WORDING : undefined;
    },
  }),
];
