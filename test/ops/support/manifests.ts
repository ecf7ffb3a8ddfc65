/**
 * Readers for the deployment files (Dockerfile, docker-compose.yml, .env.example, k8s/), so the
 * ops tests can check them against the code without a Docker engine or a cluster.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import yaml from 'js-yaml';
import { REPO_ROOT } from '@sitelens/testkit';

export { REPO_ROOT };

export function repoFile(relative: string): string {
  return readFileSync(path.join(REPO_ROOT, relative), 'utf8');
}

export function repoPathExists(relative: string): boolean {
  return existsSync(path.join(REPO_ROOT, relative));
}

export type Doc = Record<string, any>;

export function loadYamlDocuments(relative: string): Doc[] {
  return yaml.loadAll(repoFile(relative)).filter((doc): doc is Doc => typeof doc === 'object' && doc !== null);
}

/** An env file's assignments, and the commented-out `# NAME=value` examples beside them. */
export function parseEnvFile(text: string): { values: Record<string, string>; commented: Record<string, string>; order: string[] } {
  const values: Record<string, string> = {};
  const commented: Record<string, string> = {};
  const order: string[] = [];
  for (const line of text.split('\n')) {
    const active = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    const example = /^#\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    const match = active ?? example;
    if (!match) continue;
    order.push(match[1]);
    (active ? values : commented)[match[1]] = match[2].trim();
  }
  return { values, commented, order };
}

/** Kubernetes quantities: cpu (`250m`, `2`) and memory (`512Mi`, `3Gi`, `1G`) as numbers. */
export function parseQuantity(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(value);
  if (!match) throw new Error(`not a quantity: ${value}`);
  const factors: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(match[1]) * (match[2] ? factors[match[2]] : 1);
}

/** A build stage: its name, the stage or image it starts from, and its instructions. */
export interface DockerStage {
  name: string;
  from: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): { stages: DockerStage[]; args: Record<string, string> } {
  const dockerfile = DockerfileParser.parse(text);
  const args: Record<string, string> = {};
  for (const arg of dockerfile.getInitialARGs()) {
    for (const property of arg.getProperties()) args[property.getName()] = property.getValue() ?? '';
  }
  const stages: DockerStage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [from, , name] = instruction.getArguments().map((a) => a.getValue());
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { stages, args };
}

/** A stage and the stages it builds on, base first. */
export function stageChain(stages: readonly DockerStage[], name: string): DockerStage[] {
  const stage = stages.find((s) => s.name === name);
  if (!stage) return [];
  return [...stageChain(stages, stage.from), stage];
}

/** Instructions in effect for a target, inherited ones included, in order. */
export function chainInstructions(stages: readonly DockerStage[], name: string, keyword?: string): Instruction[] {
  return stageChain(stages, name)
    .flatMap((stage) => stage.instructions)
    .filter((instruction) => keyword === undefined || instruction.getKeyword() === keyword);
}

/** The exec-form (JSON array) arguments of CMD, ENTRYPOINT or HEALTHCHECK CMD. */
export function execForm(instruction: Instruction): string[] | undefined {
  const content = instruction.getArgumentsContent() ?? '';
  const json = content.replace(/^CMD\s+/, '');
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a .dockerignore pattern list leaves `file` out of the build context. */
export function dockerIgnores(patterns: readonly string[], file: string): boolean {
  let ignored = false;
  const parts = file.split('/');
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    const source = pattern
      .split('**/')
      .map((piece) =>
        piece
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('(?:.*/)?');
    const regex = new RegExp(`^${source}$`);
    if (candidates.some((candidate) => regex.test(candidate))) ignored = !negate;
  }
  return ignored;
}

export function dockerignorePatterns(): string[] {
  return repoFile('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}
