/**
 * Test-only: the program-data part of docs/pack.schema.json, made from the tables the loader
 * checks program data with (src/grammars/validate.ts), so the two cannot drift apart.
 */
import { GRAMMAR_FIELDS, INLINE_ALIAS_FIELDS } from '../grammars/validate.ts';

type Json = Record<string, unknown>;

const strings = { type: 'array', items: { type: 'string' } };
const access = { enum: [...GRAMMAR_FIELDS.access] };

function kindSchema(kind: string): Json {
  switch (kind) {
    case 'options':
      return { type: 'array', items: { type: 'string', pattern: '^[-+]' } };
    case 'strings':
      return strings;
    case 'map':
    case 'roles':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'bool':
      return { type: 'boolean' };
    case 'count':
      return { type: 'integer', minimum: 0, maximum: 64 };
    case 'option':
      return { type: 'string', pattern: '^[-+]' };
    case 'word':
      return { type: 'string' };
    case 'self':
      return { enum: ['always', 'idle', 'never'] };
    case 'settings':
    case 'terminators':
      return { type: 'object', additionalProperties: strings };
    case 'access':
      return access;
    case 'access_none':
      return { enum: [...GRAMMAR_FIELDS.access, 'none'] };
    case 'access_map':
      return { type: 'object', additionalProperties: access };
    case 'link_kind':
      return { enum: ['hard', 'symbolic'] };
    case 'runs':
      return { $ref: '#/definitions/runs' };
    case 'files':
      return { $ref: '#/definitions/files' };
    case 'subcommands':
      return { type: 'object', additionalProperties: { anyOf: [{ type: 'null' }, { $ref: '#/definitions/level' }] } };
    case 'inline':
      return { $ref: '#/definitions/inline_aliases' };
    case 'env_runs':
      return { type: 'object', propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, additionalProperties: { enum: ['shell', 'script'] } };
    case 'env_roles':
      return { type: 'object', propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, additionalProperties: { type: 'string', minLength: 1 } };
    case 'role_kinds':
      return {
        type: 'object',
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          required: ['marks'],
          properties: {
            marks: { type: 'object', propertyNames: { pattern: '^[A-Za-z0-9_-]+$' }, additionalProperties: { $ref: '#/definitions/mark_test' } },
            target: { enum: ['name', 'url'] },
          },
        },
      };
    default:
      throw new Error(`no schema for program data kind ${kind}`);
  }
}

const fields = (table: Record<string, string>): Json => Object.fromEntries(Object.entries(table).map(([k, kind]) => [k, kindSchema(kind)]));

/** `definitions` entries for program data: level, program, runs, files, inline_aliases, mark_test. */
export function programDataDefinitions(): Json {
  const filesFields = fields(GRAMMAR_FIELDS.files);
  return {
    level: { type: 'object', additionalProperties: false, properties: fields(GRAMMAR_FIELDS.level) },
    program: { type: 'object', additionalProperties: false, properties: fields(GRAMMAR_FIELDS.program) },
    runs: { type: 'object', additionalProperties: false, properties: fields(GRAMMAR_FIELDS.runs) },
    mark_test: { type: 'object', additionalProperties: false, properties: fields(GRAMMAR_FIELDS.mark_test) },
    files: {
      type: 'object',
      additionalProperties: false,
      properties: { ...filesFields, when: { type: 'object', additionalProperties: { type: 'object', additionalProperties: false, properties: filesFields } } },
    },
    inline_aliases: {
      type: 'object',
      required: ['option', 'prefix'],
      additionalProperties: false,
      properties: {
        ...Object.fromEntries(INLINE_ALIAS_FIELDS.strings.map((k) => [k, { type: 'string' }])),
        ...Object.fromEntries(INLINE_ALIAS_FIELDS.lists.map((k) => [k, strings])),
        ...Object.fromEntries(INLINE_ALIAS_FIELDS.maps.map((k) => [k, { type: 'object', additionalProperties: { type: 'string' } }])),
      },
    },
  };
}
