// A Stryker ignore-plugin for message wording, and nothing else. Three places hold it:
//
// 1. The text of an error a legate class throws (the last argument of `new XxxError(...)`).
// 2. The `message` of a guard block (and of the binder's refusal record).
// 3. In the argument binder (src/tools/binder/), the words of a refusal: what a value must be
//    (`a whole number between 1 and 10`) and what arrived (`it had 3 members`). A refusal's
//    `expected` and `arrived` are read only to write its message (InvalidArgument.message, and the
//    text of ToolOutputError and StructuredOutputError); nothing decides on them.
//
// These are sentences a person or the model reads; mutating a word in them changes no
// behaviour. Everything else in those statements (error codes, rule names, the tool named
// in a block, the `source` of a taint) is still mutated and must be pinned by tests.
//
// Rule 3 is narrow: it ignores string and template literals only, and only those whose value can
// reach nothing but a refusal's words. A literal qualifies by where its value flows, followed up
// through the expressions that compose text (a template, `+`, a branch of `?:`, `??`, `.join`,
// `.map`, `.filter`, `String(...)`, a `const`, a parameter of a function of the same module, a
// function's return value) until it reaches
//   - the `expected` or `arrived` argument of `refuser(code, expected, arrived)`,
//     `refuse(site, code, expected, arrived, detail)` or `new Refusal(code, expected, arrived)`;
//   - the value of a `message` property;
//   - the return value of an exported phrase function, named `describe...` or `...Arrived`
//     (its callers are in other modules; every one of them uses it for words).
// A `const` or a local function qualifies only when every use of it does (a use that only tests the
// text, such as a comparison or `.length`, inside a function that returns nothing but words, decides
// only words). A literal compared (`===`, `in`, a `case`), passed to any other call (`startsWith`,
// `has`, a code argument) or used as a key decides behaviour and stays mutated. A template literal
// whose `${...}` parts hold logic (a comparison, `?:`, `&&`, a callback, an array) is not ignored as a
// whole, so that logic stays mutated; its plain string parts still are.
import { createRequire } from 'node:module';
import babel from '@babel/core';
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const require = createRequire(import.meta.url);

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

/** The binder's sinks for words: the argument positions of a refusal's `expected` and `arrived`. */
const WORD_ARGUMENTS = { refuser: [1, 2], refuse: [2, 3], Refusal: [1, 2] };
/** Calls that only compose text out of their arguments or receiver. */
const TEXT_METHODS = new Set(['join', 'map', 'filter']);
const TEXT_FUNCTIONS = new Set(['String']);
const EXPORTED_PHRASE = /^describe[A-Z]|Arrived$/;
/** Nodes that pass a value through unchanged. */
const TRANSPARENT = new Set([
  'TSAsExpression',
  'TSNonNullExpression',
  'TSSatisfiesExpression',
  'ParenthesizedExpression',
]);

function inBinder(path) {
  const file = path.hub?.file?.opts?.filename ?? '';
  return file.replaceAll('\\', '/').includes('src/tools/binder/');
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier')
    return callee.property.name;
  return undefined;
}

/** Whether the value of the expression at `path` reaches nothing but a refusal's words. */
function reachesOnlyWords(path, seen) {
  const parent = path.parentPath;
  if (parent === null) return false;
  if (TRANSPARENT.has(parent.node.type)) return reachesOnlyWords(parent, seen);
  if (isMessageProperty(path) || isErrorMessageArgument(path)) return true;
  if (parent.isTemplateLiteral() || parent.isArrayExpression() || parent.isSpreadElement())
    return reachesOnlyWords(parent, seen);
  if (parent.isBinaryExpression({ operator: '+' })) return reachesOnlyWords(parent, seen);
  if (parent.isConditionalExpression() && path.key !== 'test') return reachesOnlyWords(parent, seen);
  if (parent.isLogicalExpression({ operator: '??' })) return reachesOnlyWords(parent, seen);
  if (parent.isMemberExpression() && path.key === 'object') {
    const call = parent.parentPath;
    const method = calleeName(parent.node);
    if (call.isCallExpression() && parent.key === 'callee' && TEXT_METHODS.has(method))
      return reachesOnlyWords(call, seen);
    // An object of phrases read by key: `plurals[type]`.
    if (parent.node.computed) return reachesOnlyWords(parent, seen);
    return false;
  }
  if ((parent.isCallExpression() || parent.isNewExpression()) && path.listKey === 'arguments') {
    const name = calleeName(parent.node.callee);
    if (WORD_ARGUMENTS[name]?.includes(path.key)) return true;
    if (TEXT_FUNCTIONS.has(name) || TEXT_METHODS.has(name)) return reachesOnlyWords(parent, seen);
    return parameterReachesOnlyWords(parent, path.key, seen);
  }
  if (parent.isObjectProperty() && path.key === 'value') return reachesOnlyWords(parent.parentPath, seen);
  if (parent.isArrowFunctionExpression() && path.key === 'body') return functionReachesOnlyWords(parent, seen);
  if (parent.isReturnStatement()) {
    const fn = parent.getFunctionParent();
    return fn !== null && functionReachesOnlyWords(fn, seen);
  }
  if (parent.isVariableDeclarator() && path.key === 'init' && parent.node.id.type === 'Identifier')
    return bindingReachesOnlyWords(parent.scope.getBinding(parent.node.id.name), seen);
  if (parent.isAssignmentPattern() && path.key === 'right' && parent.node.left.type === 'Identifier')
    return bindingReachesOnlyWords(parent.scope.getBinding(parent.node.left.name), seen);
  return false;
}

/** Whether a function returns nothing but words: by every use of it, or by its name if other modules call it. */
function functionReachesOnlyWords(fn, seen) {
  if (fn.isFunctionDeclaration()) {
    const name = fn.node.id.name;
    if (fn.parentPath.isExportNamedDeclaration()) return EXPORTED_PHRASE.test(name);
    return bindingReachesOnlyWords(fn.parentPath.scope.getBinding(name), seen);
  }
  // A function given as a value (an `arrived` callback, a `.map` callback): where it goes.
  if (fn.parentPath.isCallExpression() && fn.listKey === 'arguments') {
    const name = calleeName(fn.parentPath.node.callee);
    if (name === 'map') return reachesOnlyWords(fn.parentPath, seen);
  }
  return reachesOnlyWords(fn, seen);
}

/** For an argument of a call to a function of the same module: whether its parameter reaches only words. */
function parameterReachesOnlyWords(call, index, seen) {
  const callee = call.node.callee;
  if (callee.type !== 'Identifier') return false;
  const fn = call.scope.getBinding(callee.name)?.path;
  if (fn === undefined || !fn.isFunctionDeclaration()) return false;
  const param = fn.get('params')[index];
  if (param === undefined || !param.isIdentifier()) return false;
  return bindingReachesOnlyWords(fn.scope.getBinding(param.node.name), seen);
}

/** Whether every use of a binding reaches only words (a function's uses by what its calls return). */
function bindingReachesOnlyWords(binding, seen) {
  // A binding met again while it is being followed (a recursive phrase function) adds no other use.
  if (binding !== undefined && seen.has(binding)) return true;
  if (binding === undefined || !binding.constant || binding.referencePaths.length === 0) return false;
  seen.add(binding);
  return binding.referencePaths.every((reference) => {
    const call = reference.parentPath;
    if (call.isCallExpression() && reference.key === 'callee') return reachesOnlyWords(call, seen);
    return reachesOnlyWords(reference, seen) || onlyTestedForWords(reference, seen);
  });
}

/**
 * A use that only tests a phrase (compares it, reads its length, `startsWith`) inside a function that returns
 * nothing but words: what it decides is words too. The literal it is compared with stays mutated.
 */
function onlyTestedForWords(reference, seen) {
  const parent = reference.parentPath;
  const tested =
    (parent.isBinaryExpression() && COMPARISONS.has(parent.node.operator)) ||
    (parent.isMemberExpression() && reference.key === 'object' && TESTS.has(calleeName(parent.node)));
  if (!tested) return false;
  const fn = reference.getFunctionParent();
  return fn !== null && functionReachesOnlyWords(fn, seen);
}

const COMPARISONS = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);
const TESTS = new Set(['length', 'startsWith', 'endsWith', 'includes']);

const LOGIC = new Set([
  'BinaryExpression',
  'LogicalExpression',
  'ConditionalExpression',
  'UnaryExpression',
  'UpdateExpression',
  'AssignmentExpression',
  'BlockStatement',
  'ArrowFunctionExpression',
  'FunctionExpression',
  'ArrayExpression',
]);

/** Whether a template's `${...}` parts hold logic that must stay mutated. */
function holdsLogic(path) {
  let found = false;
  path.traverse({
    enter(inner) {
      if (LOGIC.has(inner.node.type)) {
        found = true;
        inner.stop();
      }
    },
  });
  return found;
}

function isWordingLiteral(path) {
  if (!path.isStringLiteral() && !path.isTemplateLiteral()) return false;
  if (path.isTemplateLiteral() && holdsLogic(path)) return false;
  return reachesOnlyWords(path, new Set());
}

/**
 * Stryker asks while it instruments the file, when the code around a node may already hold mutant switches and
 * coverage calls: the flow is followed on a fresh parse of the file as written, once per file, and a literal is
 * found again by its place in the text.
 */
const wordingByFile = new Map();

function wordingOf(filename, code) {
  let places = wordingByFile.get(filename);
  if (places === undefined) {
    places = new Set();
    const ast = babel.parseSync(code, {
      filename,
      configFile: false,
      babelrc: false,
      presets: [[require.resolve('@babel/preset-typescript'), { allExtensions: true }]],
    });
    const found = places;
    babel.traverse(new babel.File({ filename }, { code, ast }).ast, {
      enter(path) {
        if (isWordingLiteral(path)) {
          found.add(`${path.node.start}:${path.node.end}`);
          path.skip();
        }
      },
    });
    wordingByFile.set(filename, places);
  }
  return places;
}

function isRefusalWording(path) {
  if (!path.isStringLiteral() && !path.isTemplateLiteral()) return false;
  const file = path.hub?.file;
  if (file === undefined || !inBinder(path) || typeof path.node.start !== 'number') return false;
  return wordingOf(file.opts.filename, file.code).has(`${path.node.start}:${path.node.end}`);
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'message-wording', {
    shouldIgnore(path) {
      return isMessageProperty(path) || isErrorMessageArgument(path) || isRefusalWording(path) ? WORDING : undefined;
    },
  }),
];
