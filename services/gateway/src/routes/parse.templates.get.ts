import { parseTemplates } from '@sitelens/contracts';
import { defineRoute } from '../http/route';

export const parseTemplatesGet = defineRoute({
  method: 'get',
  paths: ['/v1/parse/templates', '/api/v1/parse/templates'],
  summary: 'Parse prompt templates (workflow_prompt, streaming, schema_based), content types and output formats',
  tag: 'Parse',
  async handler() {
    return { body: { success: true, ...parseTemplates() } };
  },
});
