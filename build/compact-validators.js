// Shortens the validators' code @exodus/schemasafe generates (build/validators.js), without changing what it does:
// schemasafe writes every check's error in full where it happens (`validate.errors = [{ keywordLocation: ..., ... }]`,
// `if (validate.errors === null) validate.errors = []` then a push, the save and restore of errors around each call of
// a referenced schema's function), and every `in` check beside its own-property check. Each such statement form, as
// schemasafe 1.3 writes it, becomes a call of one of HELPERS, which does exactly what the statements did. The bundle
// loads this code at the start of every execution; this takes a third off it. compact() fails when schemasafe's output
// still holds a long form afterwards (a new schemasafe writing them differently: extend REWRITES) or already uses a
// helper's name.

const scopeFunctions = require('@exodus/schemasafe/src/scope-functions');

/** schemasafe's definitions of its helpers the rewritten code no longer calls (it calls HELPERS' copies). */
const REPLACED_DEFINITIONS = [
  'const hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);\n',
  `const errorMerge = ${scopeFunctions.errorMerge};\n`,
];

/** The helpers the rewritten code calls, defined once at the top of the generated module. */
const HELPERS = `
/** schemasafe's hasOwn. */
const hasOwnProperty_ = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
/** \`key in object && hasOwn(object, key)\`. */
const has_ = (object, key) => key in object && hasOwnProperty_(object, key);
/** \`typeof value === "object" && value && !Array.isArray(value)\`. */
const isObject_ = (value) => typeof value === "object" && value && !Array.isArray(value);
/** A first-error validator's failure: its error, and false to return. */
const fail_ = (validate, keywordLocation, instanceLocation) => {
  validate.errors = [{ keywordLocation, instanceLocation }];
  return false;
};
/** An all-errors validator's error: appended, and 1 to add to its count. */
const add_ = (validate, keywordLocation, instanceLocation) => {
  if (validate.errors === null) validate.errors = [];
  validate.errors.push({ keywordLocation, instanceLocation });
  return 1;
};
/** An error appended to a list of them (null: none yet); the list. */
const withError_ = (errors, keywordLocation, instanceLocation) => {
  if (errors === null) errors = [];
  errors.push({ keywordLocation, instanceLocation });
  return errors;
};
/**
 * An all-errors validator's call of a referenced schema's function, keeping its own errors across the call: the
 * callee's errors, placed under the reference, appended when it fails; 1 to add to the count then, else 0.
 */
const viaRef_ = (validate, keywordBase, instanceBase, callee, ...args) => {
  const kept = validate.errors;
  const valid = callee(...args);
  const errors = callee.errors;
  validate.errors = kept;
  if (valid) return 0;
  if (validate.errors === null) validate.errors = [];
  validate.errors.push(...errors.map((e) => errorMerge_(e, keywordBase, instanceBase)));
  return 1;
};
/**
 * A first-error validator's call of a referenced schema's function, keeping its own errors across the call: the
 * callee's first error, placed under the reference, as its own when it fails; whether it passed.
 */
const firstViaRef_ = (validate, keywordBase, instanceBase, callee, ...args) => {
  const kept = validate.errors;
  const valid = callee(...args);
  const errors = callee.errors;
  validate.errors = kept;
  if (!valid) validate.errors = [errorMerge_(errors[0], keywordBase, instanceBase)];
  return valid;
};
/** A call of a referenced schema's function keeping the caller's errors as they were; whether it passed. */
const quietViaRef_ = (validate, callee, ...args) => {
  const kept = validate.errors;
  const valid = callee(...args);
  validate.errors = kept;
  return valid;
};
/** schemasafe's errorMerge. */
const errorMerge_ = ${scopeFunctions.errorMerge};
/** \`[...dynAnchors, dynLocal[0] || []]\`: the dynamic anchors a referenced schema's function gets. */
const anchors_ = (dynAnchors, dynLocal) => [...dynAnchors, dynLocal[0] || []];
/** \`dynamicResolve(dynAnchors || [], "#meta") || fallback\`: the function \`$dynamicRef: "#meta"\` calls. */
const metaRef_ = (dynAnchors, fallback) => (${scopeFunctions.dynamicResolve})(dynAnchors || [], "#meta") || fallback;
/**
 * A validator: \`check\` called with the validator and its arguments after its errors are reset (schemasafe's
 * \`function validate(data, ...) { validate.errors = null; ... }\`, whose body \`check\` is).
 */
const validator_ = (check) => {
  const validate = (...args) => {
    validate.errors = null;
    return check(validate, ...args);
  };
  return validate;
};
/** \`fail_(validate, "#/type", "#")\`. */
const failType_ = (validate) => fail_(validate, "#/type", "#");
/** \`fail_(validate, "#/required", "#/<name>")\`. */
const failRequired_ = (validate, name) => fail_(validate, "#/required", \`#/\${name}\`);
/** \`fail_(validate, "#/properties/<name>/<keyword>", "#/<name>")\`. */
const failProperty_ = (validate, name, keyword) => fail_(validate, \`#/properties/\${name}/\${keyword}\`, \`#/\${name}\`);
/** \`add_(validate, "#/type", "#")\`. */
const addType_ = (validate) => add_(validate, "#/type", "#");
/** \`add_(validate, "#/properties/<name>/<keyword>", "#/<name>")\`. */
const addProperty_ = (validate, name, keyword) => add_(validate, \`#/properties/\${name}/\${keyword}\`, \`#/\${name}\`);
/** \`firstViaRef_(validate, "#/properties/<name>", "#/<name>", callee, data.<name>)\`. */
const firstViaProperty_ = (validate, name, callee, data) =>
  firstViaRef_(validate, \`#/properties/\${name}\`, \`#/\${name}\`, callee, data[name]);
/** \`viaRef_(validate, "#/properties/<name>/<keyword>", "#/<name>", callee, data.<name>, ...args)\`. */
const viaProperty_ = (validate, name, keyword, callee, data, ...args) =>
  viaRef_(validate, \`#/properties/\${name}/\${keyword}\`, \`#/\${name}\`, callee, data[name], ...args);
`;

const HELPER_NAMES = [...HELPERS.matchAll(/^const (\w+) =/gm)].map((match) => match[1]);

/** A JSON string literal, as schemasafe writes a keyword location. */
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
/** An expression on one line (an instance location: a literal, or literals and variables joined with +). */
const LINE = String.raw`[^\n]*`;
/** What schemasafe calls for a referenced schema: its function, or the dynamic anchor's function (2020-12's #meta). */
const CALLEE = String.raw`ref\d+|\(dynamicResolve\(dynAnchors \|\| \[\], ${STRING}\) \|\| \w+\)`;

/**
 * The start of schemasafe's call of a referenced schema's function, keeping the caller's errors across it (the saved
 * errors, the result, the callee, its arguments and its errors are $1 to $5), up to the test of the result.
 */
const REF_CALL = [
  String.raw`const (err\d+) = validate\.errors`,
  String.raw`[ \t]*const (res\d+) = (${CALLEE})\((${LINE})\)`,
  String.raw`[ \t]*const (suberr\d+) = \3\.errors`,
  String.raw`[ \t]*validate\.errors = \1`,
];

/** [what it shortens, pattern, replacement], applied in order. */
const REWRITES = [
  [
    'a first-error failure',
    new RegExp(
      String.raw`validate\.errors = \[\{ keywordLocation: (${STRING}), instanceLocation: (${LINE}) \}\]\n[ \t]*return false\n`,
      'g',
    ),
    'return fail_(validate, $1, $2)\n',
  ],
  [
    'a failed call of a referenced schema, first error',
    new RegExp(
      [
        ...REF_CALL,
        String.raw`[ \t]*if \(!\2\) \{`,
        String.raw`[ \t]*validate\.errors = \[errorMerge\(\5\[0\], (${STRING}), (${LINE})\)\]`,
        String.raw`[ \t]*return false`,
        String.raw`[ \t]*\}\n`,
      ].join('\n'),
      'g',
    ),
    'if (!firstViaRef_(validate, $6, $7, $3, $4)) return false\n',
  ],
  [
    'a failed call of a referenced schema inside an anyOf branch, first error (the branch records none)',
    new RegExp([...REF_CALL, String.raw`[ \t]*if \(!\2\) return false\n`].join('\n'), 'g'),
    'if (!quietViaRef_(validate, $3, $4)) return false\n',
  ],
  [
    'a failed call of a referenced schema, all errors',
    new RegExp(
      [
        ...REF_CALL,
        String.raw`[ \t]*if \(!\2\) \{`,
        String.raw`[ \t]*if \(validate\.errors === null\) validate\.errors = \[\]`,
        String.raw`[ \t]*validate\.errors\.push\(\.\.\.\5\.map\(e => errorMerge\(e, (${STRING}), (${LINE})\)\)\)`,
        String.raw`[ \t]*errorCount\+\+`,
        String.raw`[ \t]*\}\n`,
      ].join('\n'),
      'g',
    ),
    'errorCount += viaRef_(validate, $6, $7, $3, $4)\n',
  ],
  [
    'an error, all errors',
    new RegExp(
      [
        String.raw`if \(validate\.errors === null\) validate\.errors = \[\]`,
        String.raw`[ \t]*validate\.errors\.push\(\{ keywordLocation: (${STRING}), instanceLocation: (${LINE}) \}\)`,
        String.raw`[ \t]*errorCount\+\+\n`,
      ].join('\n'),
      'g',
    ),
    'errorCount += add_(validate, $1, $2)\n',
  ],
  [
    'an error, all errors, counted later or in a list of its own',
    new RegExp(
      [
        String.raw`if \((validate\.errors|suberr\d+) === null\) \1 = \[\]`,
        String.raw`[ \t]*\1\.push\(\{ keywordLocation: (${STRING}), instanceLocation: (${LINE}) \}\)\n`,
      ].join('\n'),
      'g',
    ),
    '$1 = withError_($1, $2, $3)\n',
  ],
  // Only inside parentheses, so that the call stands for the whole && chain whatever surrounds it.
  [
    'an own-property check',
    new RegExp(String.raw`\((${STRING}|\w+) in (\S+) && hasOwn\(\2, \1\)\)`, 'g'),
    '(has_($2, $1))',
  ],
  [
    'an object type check',
    /(\(|\|\| )typeof (\S+) === "object" && \2 && !Array\.isArray\(\2\)(?=\)| \|\|)/g,
    '$1isObject_($2)',
  ],
];

/** A property name a location holds as it is (JSON Pointer and the URI fragment escape none of its characters). */
const NAME = String.raw`[A-Za-z0-9_$]+`;
/** A keyword's path under a property's schema (`type`, `$ref`, `anyOf/0/$ref`). */
const KEYWORD = String.raw`[A-Za-z0-9_$/]+`;
/** A property of the validated value, as schemasafe reads it (its name is \1). */
const PROPERTY = String.raw`data(?:\.\1|\["\1"\])`;

/**
 * [what it shortens, pattern, replacement] for the error locations of a property or of the value itself, which the
 * helpers build from the property's name: applied by shortenLocations, after compact and after any change to the
 * locations (build/validators.js drops the `/$ref` of a shared part's reference).
 */
const LOCATION_REWRITES = [
  [
    "a property's referenced schema, first error",
    new RegExp(String.raw`firstViaRef_\(validate, "#/properties/(${NAME})", "#/\1", (\w+), ${PROPERTY}\)`, 'g'),
    'firstViaProperty_(validate, "$1", $2, data)',
  ],
  [
    "a property's referenced schema, all errors",
    new RegExp(
      String.raw`viaRef_\(validate, "#/properties/(${NAME})/(\$ref|\$dynamicRef)", "#/\1", (${CALLEE}), ${PROPERTY}, `,
      'g',
    ),
    'viaProperty_(validate, "$1", "$2", $3, data, ',
  ],
  [
    'a missing property',
    new RegExp(String.raw`fail_\(validate, "#/required", "#/(${NAME})"\)`, 'g'),
    'failRequired_(validate, "$1")',
  ],
  [
    "a property's keyword, first error",
    new RegExp(String.raw`fail_\(validate, "#/properties/(${NAME})/(${KEYWORD})", "#/\1"\)`, 'g'),
    'failProperty_(validate, "$1", "$2")',
  ],
  [
    "a property's keyword, all errors",
    new RegExp(String.raw`add_\(validate, "#/properties/(${NAME})/(${KEYWORD})", "#/\1"\)`, 'g'),
    'addProperty_(validate, "$1", "$2")',
  ],
  ['the anchors passed on', /\[\.\.\.dynAnchors, dynLocal\[0\] \|\| \[\]\]/g, 'anchors_(dynAnchors, dynLocal)'],
  [
    "the function of the meta-schema's dynamic anchor",
    /\(dynamicResolve\(dynAnchors \|\| \[\], "#meta"\) \|\| (\w+)\)/g,
    'metaRef_(dynAnchors, $1)',
  ],
  ["the value's type, first error", /fail_\(validate, "#\/type", "#"\)/g, 'failType_(validate)'],
  ["the value's type, all errors", /add_\(validate, "#\/type", "#"\)/g, 'addType_(validate)'],
];

/** Compact code (compact's result) with the error locations of LOCATION_REWRITES built by helpers. */
function shortenLocations(code) {
  return LOCATION_REWRITES.reduce((result, [, pattern, replacement]) => result.replace(pattern, replacement), code);
}

/** The string literals of code that are values (not property keys, not directives), as acorn's nodes. */
function valueStrings(code) {
  const acorn = require('acorn');
  const literals = [];
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    const isKey = parent && (parent.type === 'Property' || parent.type === 'MethodDefinition') && parent.key === node;
    const isDirective = parent && parent.type === 'ExpressionStatement' && parent.directive !== undefined;
    // webpack resolves a require of a literal only.
    const isRequired = parent && parent.type === 'CallExpression' && parent.callee.name === 'require';
    const isValue = !(isKey && !parent.computed) && !isDirective && !isRequired;
    if (node.type === 'Literal' && typeof node.value === 'string' && isValue) literals.push(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      if (Array.isArray(value)) value.forEach((child) => visit(child, node));
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(acorn.parse(code, { ecmaVersion: 2022, sourceType: 'script' }), null);
  return literals;
}

/** The longest text two strings have in common: [its length, where it ends in a, where it ends in b]. */
function longestCommon(a, b) {
  let best = [0, 0, 0];
  const run = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = run[j];
      run[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : 0;
      if (run[j] > best[0]) best = [run[j], i, j];
      diagonal = above;
    }
  }
  return best;
}

/**
 * The generated module's code with the string literals it repeats declared once, as constants at its top, and read
 * from there (the bundle's minifier then names each in a character or two): `"#meta"`, `"boolean"`, a request's
 * property names; and the long text two long literals share (the URI formats' patterns) too, each literal becoming
 * the concatenation of its own parts and that constant. Property keys, directives and literals too short to gain stay.
 */
function shareStrings(code) {
  const literals = valueStrings(code);
  const declarations = [];
  const declare = (raw) => {
    const name = `string${declarations.length}_`;
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`compact validators: the code already uses ${name}`);
    declarations.push(`const ${name} = ${raw};`);
    return name;
  };
  const replacement = new Map();
  const long = literals.filter((literal) => literal.value.length >= 300);
  long.forEach((a, i) =>
    long.slice(i + 1).forEach((b) => {
      if (replacement.has(a) || replacement.has(b)) return;
      const [length, endA, endB] = longestCommon(a.value, b.value);
      if (length < 100) return;
      const name = declare(JSON.stringify(a.value.slice(endA - length, endA)));
      const around = (value, end) =>
        [JSON.stringify(value.slice(0, end - length)), name, JSON.stringify(value.slice(end))].join(' + ');
      replacement.set(a, `(${around(a.value, endA)})`);
      replacement.set(b, `(${around(b.value, endB)})`);
    }),
  );
  const byText = new Map();
  for (const literal of literals.filter((each) => !replacement.has(each)))
    byText.set(literal.raw, [...(byText.get(literal.raw) ?? []), literal]);
  // A read costs about 2 characters where the literal cost its length; the declaration, its length and 4 more.
  for (const [raw, uses] of byText)
    if ((raw.length - 2) * uses.length > raw.length + 4) {
      const name = declare(raw);
      uses.forEach((literal) => replacement.set(literal, name));
    }
  let result = code;
  for (const [literal, text] of [...replacement].sort(([a], [b]) => b.start - a.start))
    result = `${result.slice(0, literal.start)}${text}${result.slice(literal.end)}`;
  if (!/^"use strict";$/m.test(result)) throw new Error('compact validators: the module has no "use strict" line');
  return result.replace(/^"use strict";\n/m, (directive) => `${directive}${declarations.join('\n')}\n`);
}

/**
 * The generated module's code with each of schemasafe's validator functions, `function validate(data, ...) {
 * validate.errors = null; ... }`, made `validator_((validate, data, ...) => { ... })`: the same function, written
 * without its heading statement, and without a name of its own for the bundle's minifier to keep.
 */
function asValidators(code) {
  const edits = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    const first = node.type === 'FunctionExpression' && node.id?.name === 'validate' ? node.body.body[0] : null;
    if (first) {
      if (code.slice(first.start, first.end).trim() !== 'validate.errors = null')
        throw new Error('compact validators: a validator does not begin by resetting its errors');
      const params = node.params.map((param) => code.slice(param.start, param.end));
      edits.push([node.start, first.end, `validator_((${['validate', ...params].join(', ')}) => {`]);
      edits.push([node.end, node.end, ')']);
    }
    for (const [key, value] of Object.entries(node))
      if (key !== 'type' && value && typeof value === 'object') (Array.isArray(value) ? value : [value]).forEach(visit);
  };
  visit(require('acorn').parse(code, { ecmaVersion: 2022, sourceType: 'script' }));
  return edits
    .sort((a, b) => b[0] - a[0] || b[1] - a[1])
    .reduce((result, [start, end, text]) => `${result.slice(0, start)}${text}${result.slice(end)}`, code);
}

/** Statements of the long forms, none of which may be left. */
const LONG_FORMS = [
  /keywordLocation: /,
  /errorMerge\(e,/,
  /\S+ === null\) \S+ = \[\]/,
  / in \S+ && hasOwn\(/,
  /typeof \S+ === "object" && \S+ && !Array\.isArray/,
];

/** `code` (schemasafe's module text) with each long form made a call of a helper; HELPERS must go with it. */
function compact(code) {
  for (const name of HELPER_NAMES)
    if (new RegExp(`\\b${name}\\b`).test(code)) throw new Error(`schemasafe's code already uses the name ${name}`);
  let result = code;
  for (const [, pattern, replacement] of REWRITES) result = result.replace(pattern, replacement);
  // A rewritten call's result and errors were only read by the statements rewritten with it.
  for (const [, name] of code.matchAll(/const ((?:err|res|suberr)\d+) = /g))
    if (new RegExp(`\\b${name}\\b`).test(result))
      throw new Error(`compact validators: a call of a referenced schema no rewrite shortens (${name})`);
  for (const definition of REPLACED_DEFINITIONS) {
    const name = /^const (\w+)/.exec(definition)[1];
    const uses = result
      .split(definition)
      .join('')
      .match(new RegExp(`\\b${name}\\b`, 'g'));
    if (!uses) result = result.split(definition).join('');
  }
  const left = LONG_FORMS.find((form) => form.test(result));
  if (left) {
    const line = result.split('\n').find((text) => left.test(text));
    throw new Error(`compact validators: schemasafe wrote a form no rewrite shortens: ${line.trim()}`);
  }
  return result;
}

module.exports = { compact, shortenLocations, shareStrings, asValidators, HELPERS };
