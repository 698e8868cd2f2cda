// A dynamic `import()` slips past `no-restricted-imports`, which reads only static imports and
// re-exports. This rule refuses a dynamic import whose path is written out (a string, or a template
// without expressions) when it matches one of the same patterns ({ regex, message }) the layer's
// `no-restricted-imports` uses, so `await import('~/lib/x')` in server/ fails like a static import.
// A computed path cannot be checked here; the shop writes none (decision 066).

/** @type {import('eslint').Rule.RuleModule} */
export const noRestrictedDynamicImport = {
  meta: {
    type: 'problem',
    docs: { description: "Refuse a dynamic import() of a path the layer's import rules refuse" },
    schema: [
      {
        type: 'object',
        properties: {
          patterns: {
            type: 'array',
            items: {
              type: 'object',
              properties: { regex: { type: 'string' }, message: { type: 'string' } },
              required: ['regex'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const patterns = (context.options[0]?.patterns ?? []).map((p) => ({ re: new RegExp(p.regex), message: p.message }));
    return {
      ImportExpression(node) {
        const source = node.source;
        let path = null;
        if (source.type === 'Literal' && typeof source.value === 'string') path = source.value;
        else if (source.type === 'TemplateLiteral' && source.expressions.length === 0)
          path = source.quasis[0].value.cooked;
        if (path === null) return;
        const hit = patterns.find((p) => p.re.test(path));
        if (hit)
          context.report({
            node,
            message: `'${path}' import is restricted from being used by a pattern.${hit.message ? ` ${hit.message}` : ''}`,
          });
      },
    };
  },
};

export default { rules: { 'no-restricted-dynamic-import': noRestrictedDynamicImport } };
