// Finds the parts the panels' request schemas repeat (a research brief's output settings in four requests, a search's
// filters in three) and makes each a schema of its own, referenced by `$ref` where it was: schemasafe compiles one
// function for it instead of a copy of its code in every place (build/validators.js). The validators still report a
// failure at its place in the request's own schema: build/validators.js drops the `/$ref` these references add to a
// keyword's location, so request-check.ts reads the error as before.

/** The $id of the n-th shared part. */
const partId = (n) => `https://sheet-scout.invalid/request-part/${n}`;

const isSchemaObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Calls `visit(node, replace)` for each subschema of `schema` (not the schema itself), where JSON Schema has them. */
function forEachPart(schema, visit) {
  if (!isSchemaObject(schema)) return;
  const at = (holder, key) => {
    const node = holder[key];
    if (!isSchemaObject(node)) return;
    visit(node, (replacement) => (holder[key] = replacement));
    forEachPart(node, visit);
  };
  for (const keyword of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames']) at(schema, keyword);
  for (const keyword of ['anyOf', 'allOf', 'oneOf', 'prefixItems'])
    if (Array.isArray(schema[keyword])) schema[keyword].forEach((_, i) => at(schema[keyword], i));
  for (const keyword of ['properties', 'patternProperties'])
    if (isSchemaObject(schema[keyword])) Object.keys(schema[keyword]).forEach((name) => at(schema[keyword], name));
}

/**
 * The request schemas with their repeated parts referenced, and the parts (each with its $id), largest saving first.
 * A whole request schema that is also a part of others becomes a reference too.
 */
function shareRepeatedParts(schemas) {
  if (schemas.some((schema) => JSON.stringify(schema).includes('"$ref"')))
    throw new Error('a request schema has a $ref: its error locations would lose it (build/shared-parts.js)');
  const roots = schemas.map((schema) => ({ schema }));
  const parts = [];
  for (;;) {
    const counts = new Map();
    // A reference already made is no part to share (sharing it would make references to it without end).
    const count = (node) => {
      if ('$ref' in node) return;
      const text = JSON.stringify(node);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    };
    roots.forEach(({ schema }) => count(schema));
    [...roots.map(({ schema }) => schema), ...parts].forEach((schema) => forEachPart(schema, count));
    const saving = ([text, times]) => text.length * (times - 1);
    const [best] = [...counts].sort((a, b) => saving(b) - saving(a));
    if (!best || saving(best) === 0) break;
    const reference = { $ref: partId(parts.length) };
    const replaceIfBest = (node, replace) => JSON.stringify(node) === best[0] && replace({ ...reference });
    for (const root of roots) {
      replaceIfBest(root.schema, (replacement) => (root.schema = replacement));
      forEachPart(root.schema, replaceIfBest);
    }
    parts.forEach((part) => forEachPart(part, replaceIfBest));
    parts.push({ $id: reference.$ref, ...JSON.parse(best[0]) });
  }
  return { schemas: roots.map(({ schema }) => schema), parts };
}

module.exports = { shareRepeatedParts };
