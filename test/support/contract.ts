import fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { API_SPEC_PATH } from '../../api/api-spec';

/**
 * Checks a response against openapi.yaml independently of the app's own validator: status documented,
 * body valid against the documented schema. Tests call it on every response they assert on.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { responses: Record<string, unknown> } };

const doc = YAML.parse(fs.readFileSync(API_SPEC_PATH, 'utf8')) as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, 'openapi');

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function expectConforms(method: string, pathTemplate: string, status: number, body: unknown, contentType = 'application/json'): void {
  const op = doc.paths[pathTemplate]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${pathTemplate} is not in openapi.yaml`);
  let response = op.responses[String(status)] as { $ref?: string; content?: Record<string, unknown> } | undefined;
  let pointer = `openapi#/paths/${esc(pathTemplate)}/${method.toLowerCase()}/responses/${status}`;
  if (!response) throw new Error(`${method} ${pathTemplate} does not document status ${status}; body: ${JSON.stringify(body).slice(0, 300)}`);
  if (response.$ref) {
    const name = response.$ref.split('/').pop()!;
    response = doc.components.responses[name] as typeof response;
    pointer = `openapi#/components/responses/${esc(name)}`;
  }
  if (!response?.content?.[contentType]) throw new Error(`${method} ${pathTemplate} ${status} documents no ${contentType} body`);
  const validate = ajv.getSchema(`${pointer}/content/${esc(contentType)}/schema`) ?? ajv.compile({ $ref: `${pointer}/content/${esc(contentType)}/schema` });
  if (!validate(body)) {
    throw new Error(`${method} ${pathTemplate} ${status} breaks the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}

/** Checks a value against a named schema of openapi.yaml (a webhook body, which no operation answers with). */
export function expectMatchesSchema(name: string, value: unknown): void {
  const ref = `openapi#/components/schemas/${esc(name)}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(value)) throw new Error(`${name} breaks the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`);
}
