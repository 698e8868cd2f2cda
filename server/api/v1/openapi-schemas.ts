// The JSON Schemas of the OpenAPI document: the operations' zod schemas converted once for answers
// (zod's output) and once for requests (zod's input), named schemas as shared components.
import { z } from 'zod';
import { namedApiSchemas, type ApiOperation, type ResponseSpec } from './registry';

export type JsonSchema = Record<string, unknown>;

export const COMPONENT_REF = '#/components/schemas/';
const INPUT_MARK = '__INPUT__';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Removes what zod adds for validation but only clutters a reference. Answers may gain fields in a
 * later version, so response objects do not say `additionalProperties: false` (clients must ignore
 * fields they do not know).
 */
const tidy = (io: 'input' | 'output') => (ctx: { jsonSchema: JsonSchema }) => {
  const schema = ctx.jsonSchema;
  if (schema.format === 'date-time') delete schema.pattern;
  if (schema.minimum === -MAX_SAFE) delete schema.minimum;
  if (schema.maximum === MAX_SAFE) delete schema.maximum;
  if (io === 'output' && schema.additionalProperties === false) delete schema.additionalProperties;
};

function convert(roots: Map<string, z.ZodType>, io: 'input' | 'output', mark: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const namedIds = new Map<z.ZodType, string>();
  for (const [id, schema] of namedApiSchemas()) {
    registry.add(schema, { id });
    namedIds.set(schema, id);
  }
  // A root that is a named schema becomes a $ref to it; the same schema at two roots is converted once.
  const direct = new Map<string, string>();
  const firstRoot = new Map<z.ZodType, string>();
  const aliases = new Map<string, string>();
  for (const [id, schema] of roots) {
    const name = namedIds.get(schema);
    if (name) direct.set(id, name);
    else if (firstRoot.has(schema)) aliases.set(id, firstRoot.get(schema)!);
    else {
      firstRoot.set(schema, id);
      registry.add(schema, { id });
    }
  }
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_REF}${id}${mark}`,
    override: tidy(io) as never,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  for (const [id, name] of direct) schemas[id] = { $ref: `${COMPONENT_REF}${name}${mark}` };
  for (const [id, first] of aliases) schemas[id] = schemas[first]!;
  // A root schema also used inside another schema was given a synthetic id: put it back in place.
  const inline = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, depth));
    if (!value || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(`${COMPONENT_REF}__`) && depth < 20) {
      const { $ref: _, ...rest } = value as Record<string, unknown>;
      return { ...(inline(schemas[ref.slice(COMPONENT_REF.length).replace(mark, '')], depth + 1) as object), ...rest };
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, depth)]));
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, inline(schema, 0) as JsonSchema]));
}

/** Every $ref target in a schema. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF))
        found.add(inner.slice(COMPONENT_REF.length));
      else refsIn(inner, found);
    }
  }
  return found;
}

function rewriteRefs<T>(value: T, rename: (target: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rename)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_REF)
          ? COMPONENT_REF + rename(inner.slice(COMPONENT_REF.length))
          : rewriteRefs(inner, rename);
    }
    return out as T;
  }
  return value;
}

/** The converted schemas: answers and requests by root id, and the document's components. */
export interface ConvertedSchemas {
  output: Record<string, JsonSchema>;
  input: Record<string, JsonSchema>;
  components: Record<string, JsonSchema>;
}

/**
 * Converts every operation's schemas. A named schema whose input differs from its output gets a second
 * component, `<Name>Input`. Roots are named `__in_<index>_<part>` and `__out_<index>_<status>`.
 */
export function convertOperationSchemas(operations: readonly ApiOperation[]): ConvertedSchemas {
  const inputRoots = new Map<string, z.ZodType>();
  const outputRoots = new Map<string, z.ZodType>();
  operations.forEach(({ spec }, index) => {
    for (const part of ['params', 'query', 'headers', 'body'] as const) {
      if (spec[part]) inputRoots.set(`__in_${index}_${part}`, spec[part]);
    }
    for (const [status, response] of Object.entries(spec.responses as Record<string, ResponseSpec>)) {
      if (response.schema) outputRoots.set(`__out_${index}_${status}`, response.schema);
    }
  });

  const output = convert(outputRoots, 'output', '');
  const inputRaw = convert(inputRoots, 'input', INPUT_MARK);
  const named = [...namedApiSchemas().keys()];

  // A named schema's input form differs when its own text differs or it refers to one that does.
  const plain = (schema: JsonSchema) => JSON.stringify(rewriteRefs(schema, (t) => t.replace(INPUT_MARK, '')));
  const differs = new Set(named.filter((id) => plain(inputRaw[id]!) !== JSON.stringify(output[id])));
  for (let changed = true; changed;) {
    changed = false;
    for (const id of named) {
      if (differs.has(id)) continue;
      if ([...refsIn(inputRaw[id])].some((target) => differs.has(target.replace(INPUT_MARK, '')))) {
        differs.add(id);
        changed = true;
      }
    }
  }
  const inputName = (target: string) => {
    const id = target.replace(INPUT_MARK, '');
    return differs.has(id) ? `${id}Input` : id;
  };
  const input: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(inputRaw)) input[id] = rewriteRefs(schema, inputName);

  const components: Record<string, JsonSchema> = {};
  for (const id of named) components[id] = output[id]!;
  // Input components that some request refers to (directly or through another component).
  const pending = [...inputRoots.keys()].flatMap((root) => [...refsIn(input[root])]);
  while (pending.length) {
    const name = pending.pop()!;
    if (components[name] || !name.endsWith('Input')) continue;
    const id = name.slice(0, -'Input'.length);
    components[name] = input[id]!;
    pending.push(...refsIn(input[id]));
  }
  return { output, input, components };
}
